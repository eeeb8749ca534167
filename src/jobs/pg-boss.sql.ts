import { OWNER_FIELD, ownerLockKey } from './owner-lease.js';

/**
 * The few statements this adapter runs on pg-boss's own tables (schema version 24, pg-boss 10.x),
 * for what its API lacks: recording which process runs a job, finding jobs of dead processes, and
 * counting jobs per state. Everything else goes through pg-boss's API.
 */

/** Records the owner in the job's `output`, which pg-boss overwrites when the job completes or fails. */
export function claimJobs(schema: string): string {
  return `
    UPDATE ${schema}.job
    SET output = CASE WHEN jsonb_typeof(output) = 'object' THEN output ELSE '{}'::jsonb END
      || jsonb_build_object('${OWNER_FIELD}', $3::text)
    WHERE name = $1 AND id = ANY($2::uuid[]) AND state = 'active'`;
}

/**
 * Active jobs whose process is gone, locked until the caller's transaction ends so that two
 * instances recovering at once cannot fail the same job twice (the second would hit a new attempt).
 * `exclusive`: this process owns the database alone, so every active job is an orphan.
 * Otherwise a job is an orphan when its owner's lease lock is free: taking it for the transaction
 * succeeds only if no live session holds it.
 */
export function findOrphans(schema: string, exclusive: boolean): string {
  const ownerIsDead = exclusive ? 'true' : `pg_try_advisory_xact_lock(${ownerLockKey(`output->>'${OWNER_FIELD}'`)})`;
  return `
    SELECT name, id FROM ${schema}.job
    WHERE name = ANY($1::text[]) AND state = 'active' AND ${ownerIsDead}
    FOR UPDATE SKIP LOCKED`;
}

export function countStates(schema: string): string {
  return `
    SELECT name, state::text AS state, count(*)::int AS count
    FROM ${schema}.job
    WHERE name = ANY($1::text[])
    GROUP BY name, state`;
}
