import {
  BigIntType,
  Collection,
  Entity,
  Index,
  ManyToOne,
  OneToMany,
  PrimaryKey,
  Property,
  Unique,
  type Opt,
} from '@mikro-orm/core';
import type { Translations } from '../core/i18n/translations.js';
import { Addon } from './addon.entity.js';
import { Channel, FileStatus, Platform } from './catalogue.enums.js';
import { License } from './license.entity.js';

@Entity({ tableName: 'versions' })
@Index({ properties: ['addon', 'channel', 'id'] })
// One version per string on an add-on, deleted ones included: an upload becomes a version once.
@Unique({ properties: ['addon', 'version'] })
export class Version {
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @ManyToOne({ entity: () => Addon, deleteRule: 'cascade' })
  addon!: Addon;

  @Property({ type: 'string', length: 255 })
  version!: string;

  @Property({ type: 'smallint', default: Channel.LISTED })
  channel: Opt<Channel> = Channel.LISTED;

  @ManyToOne({ entity: () => License, nullable: true, deleteRule: 'set null' })
  license: License | null = null;

  @Property({ type: 'jsonb', nullable: true })
  releaseNotes: Translations | null = null;

  /** The developer's notes for reviewers (v5 `approval_notes`); only authors and reviewers read them. */
  @Property({ type: 'text', default: '' })
  approvalNotes: Opt<string> = '';

  @Property({ type: 'boolean', default: false })
  deleted: Opt<boolean> = false;

  @Property({ type: 'timestamptz', defaultRaw: 'now()' })
  created: Opt<Date> = new Date();

  @Property({ type: 'timestamptz', nullable: true })
  reviewed: Date | null = null;

  @OneToMany({ entity: () => VersionCompat, mappedBy: 'version', orderBy: { application: 'asc' } })
  compatibility = new Collection<VersionCompat>(this);

  @OneToMany({ entity: () => AddonFile, mappedBy: 'version', orderBy: { id: 'asc' } })
  files = new Collection<AddonFile>(this);
}

/** Compatibility of a version with one application: min/max version strings and their version_int. */
@Entity({ tableName: 'version_compat' })
@Unique({ properties: ['version', 'application'] })
export class VersionCompat {
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @ManyToOne({ entity: () => Version, deleteRule: 'cascade' })
  version!: Version;

  @Property({ type: 'smallint' })
  application!: number;

  @Property({ type: 'string', length: 255 })
  min!: string;

  @Property({ type: 'string', length: 255 })
  max!: string;

  @Property({ type: new BigIntType('number') })
  minInt!: number;

  @Property({ type: new BigIntType('number') })
  maxInt!: number;
}

@Entity({ tableName: 'files' })
export class AddonFile {
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @ManyToOne({ entity: () => Version, deleteRule: 'cascade', index: true })
  version!: Version;

  @Property({ type: 'smallint', default: Platform.ALL })
  platform: Opt<Platform> = Platform.ALL;

  @Property({ type: 'smallint', default: FileStatus.AWAITING_REVIEW })
  status: Opt<FileStatus> = FileStatus.AWAITING_REVIEW;

  @Property({ type: 'string', length: 255 })
  filename!: string;

  /** `sha256:<hex>` of the bytes served. */
  @Property({ type: 'string', length: 255, default: '' })
  hash: Opt<string> = '';

  @Property({ type: new BigIntType('number'), default: 0 })
  size: Opt<number> = 0;

  @Property({ type: 'boolean', default: true })
  isWebextension: Opt<boolean> = true;

  @Property({ type: 'boolean', default: false })
  isRestartRequired: Opt<boolean> = false;

  @Property({ type: 'boolean', default: false })
  isVendorSigned: Opt<boolean> = false;

  @Property({ type: 'boolean', default: false })
  strictCompatibility: Opt<boolean> = false;

  @Property({ type: 'text[]', default: '{}' })
  permissions: Opt<string[]> = [];

  @Property({ type: 'text[]', default: '{}' })
  optionalPermissions: Opt<string[]> = [];

  /** Manifest v3 `host_permissions` (in v2 they are among `permissions`). */
  @Property({ type: 'text[]', default: '{}' })
  hostPermissions: Opt<string[]> = [];

  /** `gecko.data_collection_permissions.required`: the data it says it collects. */
  @Property({ type: 'text[]', default: '{}' })
  dataCollectionPermissions: Opt<string[]> = [];

  @Property({ type: 'text[]', default: '{}' })
  optionalDataCollectionPermissions: Opt<string[]> = [];

  @Property({ type: 'timestamptz', defaultRaw: 'now()' })
  created: Opt<Date> = new Date();

  /** When the file was approved (by a reviewer or automatically) and signed. */
  @Property({ type: 'timestamptz', nullable: true })
  reviewed: Date | null = null;

  /** While disabled (`disabledReason` set): the status it had before, restored when re-enabled. */
  @Property({ type: 'smallint', nullable: true })
  originalStatus: FileStatus | null = null;

  /** Why a disabled file is disabled (`FileDisabledReason`); 0 for anyone but its developer. */
  @Property({ type: 'smallint', default: 0 })
  disabledReason: Opt<number> = 0;

  /** The served bytes carry the service's signature. */
  @Property({ type: 'boolean', default: false })
  isSigned: Opt<boolean> = false;

  /** Where the bytes are in the private file storage: the upload until signed, then the signed file. */
  @Property({ type: 'string', length: 255, default: '' })
  storageKey: Opt<string> = '';
}
