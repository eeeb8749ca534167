import type { Platform } from '../core/module.js';
import { CurationLog } from './curation-log.js';

/** The curation module's services, from the platform. */
export function createCurationServices(_platform: Platform) {
  return { curationLog: new CurationLog() };
}

export type CurationServices = ReturnType<typeof createCurationServices>;
