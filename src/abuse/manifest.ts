import type { DomainManifest } from '../core/domain.js';
import { AbuseReport, AbuseThrottle } from './abuse-report.entity.js';
import { AbuseResolver } from './abuse.resolver.js';

export const abuseManifest: DomainManifest = {
  name: 'abuse',
  entities: [AbuseReport, AbuseThrottle],
  resolvers: [AbuseResolver],
};
