import { Entity, Index, ManyToOne, PrimaryKey, Property, Unique, type Opt } from '@mikro-orm/core';
import { User } from '../accounts/user.entity.js';

/**
 * A block of an add-on id (guid) for a range of its versions, whether or not an add-on here has that
 * guid (as the original's `Block`). Every signed version of the guid in `[minVersion, maxVersion]`
 * (the browser's version order; `0`..`*` is every version) is blocked: published to browsers in the
 * blocklist filters (`BlocklistPublisher`) and refused for further signing and submission.
 */
@Entity({ tableName: 'blocks' })
export class Block {
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @Unique()
  @Property({ type: 'string', length: 255 })
  guid!: string;

  @Property({ type: 'string', length: 255, default: '0' })
  minVersion: Opt<string> = '0';

  @Property({ type: 'string', length: 255, default: '*' })
  maxVersion: Opt<string> = '*';

  /** Soft: the browser disables the add-on but lets the user enable it again. Hard otherwise. */
  @Property({ type: 'boolean', default: false })
  soft: Opt<boolean> = false;

  /** Why, shown to users on the block's page. */
  @Property({ type: 'text', nullable: true })
  reason: string | null = null;

  /** Where the decision is documented (a bug report, a policy page). */
  @Property({ type: 'text', nullable: true })
  url: string | null = null;

  @ManyToOne({ entity: () => User, nullable: true, deleteRule: 'set null' })
  updatedBy: User | null = null;

  @Property({ type: 'timestamptz', defaultRaw: 'now()' })
  created: Opt<Date> = new Date();

  @Property({ type: 'timestamptz', defaultRaw: 'now()' })
  modified: Opt<Date> = new Date();
}

/**
 * One record of the blocklist's published collection, as Remote Settings serves it to browsers: a
 * base filter (`attachmentType` `bloomfilter-base` for hard blocks, `softblocks-bloomfilter-base` for
 * soft ones, with its attachment) or a stash (the keys blocked, soft-blocked and unblocked since the
 * previous publication). Written only by `BlocklistPublisher`.
 */
@Entity({ tableName: 'blocklist_records' })
@Index({ properties: ['lastModified'] })
export class BlocklistRecord {
  @PrimaryKey({ type: 'uuid' })
  id!: string;

  /** Milliseconds since the epoch, increasing across records (the collection's timestamp is the largest). */
  @Property({ type: 'bigint' })
  lastModified!: string;

  /** `bloomfilter-base`, `softblocks-bloomfilter-base`, or null for a stash. */
  @Property({ type: 'string', length: 40, nullable: true })
  attachmentType: string | null = null;

  /** The record's fields as served (key_format, generation_time or stash_time, stash, attachment). */
  @Property({ type: 'jsonb' })
  data!: Record<string, unknown>;
}

/**
 * What was last published: the generation, the keys blocked hard and soft at that point, and the
 * keys each base filter was built against (so the next run knows which keys the filters have never
 * seen). The key sets live in file storage (`blocklist/mlbf/<generation>/…`); this row names them.
 */
@Entity({ tableName: 'blocklist_publications' })
export class BlocklistPublication {
  @PrimaryKey({ type: 'bigint', autoincrement: false })
  generation!: string;

  /** The generation of the base filters the published state builds on. */
  @Property({ type: 'bigint' })
  baseGeneration!: string;

  @Property({ type: 'integer' })
  blockedCount!: number;

  @Property({ type: 'integer' })
  softBlockedCount!: number;

  @Property({ type: 'integer' })
  signedCount!: number;

  /** Stash entries published since the base (a new base replaces them past the threshold). */
  @Property({ type: 'integer', default: 0 })
  stashedSinceBase: Opt<number> = 0;

  @Property({ type: 'timestamptz', defaultRaw: 'now()' })
  created: Opt<Date> = new Date();
}

/**
 * Publication requests (one row, id 1, written with `src/blocklist/publication-requests.ts`): every
 * block change and `publishBlocklist` adds one to `requested` in its own transaction, and a rebuild
 * records its number in `rebuildRequested` until a run publishes base filters after reading it. The
 * publisher derives what to publish from this row, never from a job's payload.
 */
@Entity({ tableName: 'blocklist_requests' })
export class BlocklistRequests {
  @PrimaryKey({ type: 'integer', autoincrement: false })
  id!: number;

  @Property({ type: 'bigint', default: 0 })
  requested: Opt<string> = '0';

  @Property({ type: 'bigint', nullable: true })
  rebuildRequested: string | null = null;
}
