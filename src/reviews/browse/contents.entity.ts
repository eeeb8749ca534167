import { Entity, PrimaryKey, Property, Unique, type Opt } from '@mikro-orm/core';
import type { MimeCategory } from './mime.js';

/** One entry of a package's tree: a file, or a directory (its size and sha256 null). */
export interface PackageEntry {
  path: string;
  filename: string;
  depth: number;
  size: number | null;
  sha256: string | null;
  mimetype: string;
  category: MimeCategory;
}

/**
 * A package's tree, computed once per file bytes (the file's `sha256:` hash: a signed file is
 * other bytes than its upload) and kept for every later browse or compare.
 */
@Entity({ tableName: 'package_contents' })
export class PackageContents {
  @PrimaryKey({ type: 'string', length: 80 })
  hash!: string;

  @Property({ type: 'jsonb' })
  entries!: PackageEntry[];

  @Property({ type: 'timestamptz', defaultRaw: 'now()' })
  created: Opt<Date> = new Date();
}

/** A file's diff between two packages (by their hashes), computed once and reused. */
@Entity({ tableName: 'package_file_diffs' })
@Unique({ properties: ['parentHash', 'hash', 'path'] })
export class PackageFileDiff {
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @Property({ type: 'string', length: 80 })
  parentHash!: string;

  @Property({ type: 'string', length: 80 })
  hash!: string;

  @Property({ type: 'text' })
  path!: string;

  @Property({ type: 'jsonb' })
  diff!: unknown;

  @Property({ type: 'timestamptz', defaultRaw: 'now()' })
  created: Opt<Date> = new Date();
}
