import type { EntityManager } from '@mikro-orm/postgresql';
import { errors } from '../../core/errors.js';
import { seedCatalogue, type SeedResult } from './seed.js';

export const seedCommandOptions = {
  addons: { type: 'string' },
  seed: { type: 'string' },
  append: { type: 'boolean' },
  'batch-size': { type: 'string' },
} as const;

function integer(name: string, value: unknown): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !/^\d+$/.test(value)) {
    throw errors.badParameter(`--${name} must be a non-negative integer (got ${JSON.stringify(value)})`);
  }
  return Number(value);
}

/** `catalogue:seed`: parses the options and seeds with a progress bar on stderr. */
export function runSeedCommand(em: EntityManager, values: Record<string, unknown>): Promise<SeedResult> {
  const addons = integer('addons', values.addons);
  if (addons === undefined) throw errors.badParameter('--addons is required');
  return seedCatalogue(em, {
    addons,
    seed: integer('seed', values.seed),
    append: values.append === true,
    batchSize: integer('batch-size', values['batch-size']),
    progress: process.stderr,
  });
}
