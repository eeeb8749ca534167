import type { Platform } from '../core/module.js';
import { UpdatesService } from './updates.service.js';

/** The updates module's services, from the platform. */
export function createUpdatesServices({ responseCache }: Platform) {
  return { updates: new UpdatesService(responseCache) };
}

export type UpdatesServices = ReturnType<typeof createUpdatesServices>;
