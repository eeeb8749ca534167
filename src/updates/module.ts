import { defineModule } from '../core/module.js';
import { createUpdatesServices } from './services.js';

/** The update service browsers ask about installed add-ons (`/update/`), its answers in the answer cache. */
export const updatesModule = defineModule({
  name: 'updates',
  dependsOn: [],
  entities: [],
  resolvers: [],
  services: createUpdatesServices,
});

export type { UpdatesServices } from './services.js';
