import { defineModule } from '../core/module.js';
import { updateCheck, updateInfo } from './updates.http.js';
import { createUpdatesServices } from './services.js';

/** The update service browsers ask about installed add-ons (`/update/`), its answers in the answer cache. */
export const updatesModule = defineModule({
  name: 'updates',
  dependsOn: [],
  entities: [],
  resolvers: [],
  services: createUpdatesServices,
  // The update service (Firefox's extensions.update.url) and its release notes pages.
  http: ({ updates }, { db, config }) => [
    {
      method: 'get',
      path: ['/update/', '/update/VersionCheck.php'],
      handler: updateCheck(updates, db, config.SITE_URL),
    },
    { method: 'get', path: '/:locale/:app/addon/:addon/versions/:version/updateinfo/', handler: updateInfo(db) },
  ],
});

export type { UpdatesServices } from './services.js';
