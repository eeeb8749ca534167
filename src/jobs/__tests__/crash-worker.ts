/**
 * Child process of the crash-recovery test: opens the database named by JOBS_TEST_TARGET, sends
 * one job, starts working it with a handler that never returns and prints the job's id once the
 * handler runs. The test then kills it with SIGKILL.
 */
import 'reflect-metadata';
import { createLogger } from '../../core/logger.js';
import { openDatabase, type DatabaseTarget } from '../../db/database.js';
import { databaseSchema } from '../../modules.js';
import { createJobQueue } from '../pg-boss.queue.js';
import { crashQueues, type CrashJobs } from './crash-jobs.js';

const target = JSON.parse(process.env.JOBS_TEST_TARGET ?? '') as DatabaseTarget;
const logger = createLogger(process.env.TEST_LOG_LEVEL ?? 'warn', 'stderr');
const db = await openDatabase(target, { ...databaseSchema, logger });
const queue = createJobQueue<CrashJobs>(db, { queues: crashQueues, logger, pollIntervalSeconds: 0.1 });
await queue.start();
await queue.send('crash', { upload: 'u1' });
await queue.work('crash', async (job) => {
  process.stdout.write(`${JSON.stringify({ active: job.id })}\n`);
  await new Promise(() => {});
});
