import { Entity, Index, ManyToOne, PrimaryKey, Property, type Opt } from '@mikro-orm/core';
import { User } from '../accounts/user.entity.js';
import { Addon } from '../catalogue/addon.entity.js';
import { AddonType, Channel } from '../catalogue/catalogue.enums.js';
import { Version } from '../catalogue/version.entity.js';
import type { ValidationResults } from './validation/results.js';

/**
 * An uploaded package on its way to a version: stored, validated off the request path, then turned
 * into a version (exactly once: `version` is set in the transaction that creates it).
 */
@Entity({ tableName: 'file_uploads' })
@Index({ properties: ['addon', 'version'] })
export class FileUpload {
  /** 32 hex digits (a UUID without dashes): the `pk` of the status object. */
  @PrimaryKey({ type: 'string', length: 32 })
  uuid!: string;

  @ManyToOne({ entity: () => User, deleteRule: 'cascade', index: true })
  user!: User;

  /**
   * The add-on it is a version of. Null for a v5 upload not submitted yet (`POST /api/v5/addons/upload/`):
   * validated on its own, it becomes a version when submitted to an add-on.
   */
  @ManyToOne({ entity: () => Addon, deleteRule: 'cascade', nullable: true })
  addon: Addon | null = null;

  /** The version string (the manifest's, checked against the URL's). */
  @Property({ type: 'string', length: 255 })
  version!: string;

  @Property({ type: 'smallint' })
  channel!: Channel;

  @Property({ type: 'smallint' })
  addonType!: AddonType;

  /** Signed without a human (unlisted, auto-approval not disabled). */
  @Property({ type: 'boolean' })
  automatedSigning!: boolean;

  /** The client's file name (for humans only). */
  @Property({ type: 'string', length: 255 })
  filename!: string;

  /** Where the uploaded bytes are, in the private file storage. */
  @Property({ type: 'string', length: 255 })
  storageKey!: string;

  @Property({ type: 'bigint', default: 0 })
  size: Opt<number> = 0;

  /** `sha256:<hex>` of the uploaded bytes. */
  @Property({ type: 'string', length: 80 })
  hash!: string;

  /** Filled once validation ran (pass or fail): `processed`. */
  @Property({ type: 'jsonb', nullable: true, lazy: true })
  validation: ValidationResults | null = null;

  @Property({ type: 'timestamptz', nullable: true })
  processedAt: Date | null = null;

  @Property({ type: 'boolean', default: false })
  valid: Opt<boolean> = false;

  /** The version made from this upload. */
  @ManyToOne({ entity: () => Version, nullable: true, deleteRule: 'set null' })
  createdVersion: Version | null = null;

  @Property({ type: 'timestamptz', defaultRaw: 'now()' })
  created: Opt<Date> = new Date();
}
