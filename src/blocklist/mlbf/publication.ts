import { buildCascade, cascadeHas, type FilterCascade } from './filter-cascade.js';

/**
 * What a publication of the blocklist contains and how a browser reads it: pure functions over
 * key sets (`<guid>:<version>` of every signed version), so the rules are tested without storage.
 *
 * A browser holds the latest base filters (one for hard blocks, one for soft blocks) and the stashes
 * published after them. For a key it looks at the stashes newest first (a key in `blocked`,
 * `softblocked` or `unblocked` is decided by the newest stash naming it), then at the hard filter,
 * then at the soft one.
 */
export const KEY_FORMAT = '{guid}:{version}';

/** Stash entries since the base past which a new base replaces the stashes (the original's BASE_REPLACE_THRESHOLD). */
export const BASE_REPLACE_THRESHOLD = 5_000;

export function blocklistKey(guid: string, version: string): string {
  return `${guid}:${version}`;
}

export type BlockState = 'hard' | 'soft' | 'none';

/** The blocked keys of a moment, hard and soft (disjoint: a hard block wins). */
export interface BlockedSets {
  readonly hard: ReadonlySet<string>;
  readonly soft: ReadonlySet<string>;
}

export interface Stash {
  blocked: string[];
  softblocked: string[];
  unblocked: string[];
}

export interface BaseFilters {
  readonly hard: FilterCascade;
  readonly soft: FilterCascade;
}

/** The state a browser derives for `key` from the base filters and the stashes (oldest first). */
export function publishedState(key: string, base: BaseFilters, stashes: readonly Stash[]): BlockState {
  for (let i = stashes.length - 1; i >= 0; i--) {
    const stash = stashes[i]!;
    if (stash.blocked.includes(key)) return 'hard';
    if (stash.softblocked.includes(key)) return 'soft';
    if (stash.unblocked.includes(key)) return 'none';
  }
  if (cascadeHas(base.hard, key)) return 'hard';
  if (cascadeHas(base.soft, key)) return 'soft';
  return 'none';
}

function stateOf(sets: BlockedSets, key: string): BlockState {
  return sets.hard.has(key) ? 'hard' : sets.soft.has(key) ? 'soft' : 'none';
}

/** New base filters: the hard and the soft blocked keys, each against every other signed key. */
export function buildBaseFilters(current: BlockedSets, signed: Iterable<string>, salt?: Buffer): BaseFilters {
  const notHard: string[] = [];
  const notSoft: string[] = [];
  for (const key of signed) {
    if (!current.hard.has(key)) notHard.push(key);
    if (!current.soft.has(key)) notSoft.push(key);
  }
  return {
    hard: buildCascade(current.hard, notHard, salt ? { salt } : {}),
    soft: buildCascade(current.soft, notSoft, salt ? { salt } : {}),
  };
}

/** What the previous publication left browsers with. */
export interface PreviousPublication {
  readonly blocked: BlockedSets;
  /** Every signed key when it was published: keys outside it were never seen by a filter or stash. */
  readonly signed: ReadonlySet<string>;
  /** The base filters browsers hold. */
  readonly base: BaseFilters;
  readonly stashedSinceBase: number;
}

export type PublicationPlan =
  { kind: 'base'; reason: 'first' | 'threshold' | 'forced' } | { kind: 'stash'; stash: Stash } | { kind: 'none' };

/**
 * The next publication: a stash of what changed since the previous one, or new base filters when
 * there is no previous one, when it is forced, or when the stashes since the base would pass the
 * threshold. A stash names every key whose state changed, and every key signed since the previous
 * publication that the base filters would misreport (a filter answers anything for keys it was not
 * built against).
 */
export function planPublication(
  current: BlockedSets,
  signed: Iterable<string>,
  previous: PreviousPublication | null,
  options: { force?: boolean; threshold?: number } = {},
): PublicationPlan {
  if (!previous) return { kind: 'base', reason: 'first' };
  if (options.force) return { kind: 'base', reason: 'forced' };
  const stash: Stash = { blocked: [], softblocked: [], unblocked: [] };
  const place = (key: string, state: BlockState) =>
    (state === 'hard' ? stash.blocked : state === 'soft' ? stash.softblocked : stash.unblocked).push(key);
  for (const key of new Set([...previous.blocked.hard, ...previous.blocked.soft, ...current.hard, ...current.soft])) {
    const now = stateOf(current, key);
    if (now !== stateOf(previous.blocked, key)) place(key, now);
  }
  for (const key of signed) {
    if (previous.signed.has(key) || current.hard.has(key) || current.soft.has(key)) continue;
    // Never published: the browser answers with the base filters alone.
    if (publishedState(key, previous.base, []) !== 'none') place(key, 'none');
  }
  const size = stash.blocked.length + stash.softblocked.length + stash.unblocked.length;
  if (size === 0) return { kind: 'none' };
  if (previous.stashedSinceBase + size > (options.threshold ?? BASE_REPLACE_THRESHOLD)) {
    return { kind: 'base', reason: 'threshold' };
  }
  for (const list of Object.values(stash)) list.sort();
  return { kind: 'stash', stash };
}
