import type { QueueDefinitions } from '../queue.port.js';

/** The queue shared by the crash-recovery test and its child process. */
export interface CrashJobs {
  crash: { upload: string };
}

export const crashQueues: QueueDefinitions<CrashJobs> = { crash: { retryLimit: 2 } };
