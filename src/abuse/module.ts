import { defineModule } from '../core/module.js';
import { abuseMigrations } from './migrations/index.js';
import { abuseSettings } from './settings.js';
import { createAbuseServices } from './services.js';
import { accountsModule } from '../accounts/module.js';
import { catalogueModule } from '../catalogue/module.js';
import { AbuseReport, AbuseThrottle } from './abuse-report.entity.js';
import { AbuseResolver } from './abuse.resolver.js';

/** Abuse reports about add-ons and users, and their moderation. */
export const abuseModule = defineModule({
  name: 'abuse',
  dependsOn: [accountsModule, catalogueModule],
  settings: abuseSettings,
  entities: [AbuseReport, AbuseThrottle],
  resolvers: [AbuseResolver],
  migrations: abuseMigrations,
  services: createAbuseServices,
});

export type { AbuseServices } from './services.js';
