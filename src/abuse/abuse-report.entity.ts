import { Entity, Index, ManyToOne, PrimaryKey, PrimaryKeyProp, Property, type Opt } from '@mikro-orm/core';
import { User } from '../accounts/user.entity.js';
import { Addon } from '../catalogue/addon.entity.js';
import { Collection } from '../collections/collection.entity.js';
import { Rating } from '../ratings/rating.entity.js';
import { ArrayType } from '@mikro-orm/core';

/**
 * A report of abuse about an add-on, a user, a rating or a collection (docs/compat-notes.md §4.7). An
 * add-on report keeps the guid the reporter named (or the add-on's), and the add-on when the site
 * knows it; a user, rating or collection report keeps its target. Reviewers resolve reports (`AbuseService.resolve`), which may disable the add-on.
 */
@Entity({ tableName: 'abuse_reports' })
@Index({
  name: 'abuse_reports_guid_lower_index',
  expression: 'create index "abuse_reports_guid_lower_index" on "abuse_reports" (lower("guid"))',
})
export class AbuseReport {
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @ManyToOne({ entity: () => Addon, nullable: true, deleteRule: 'set null', index: true })
  addon: Addon | null = null;

  /** The add-on's id as named (guid-shaped and unknown to the site), or the known add-on's. */
  @Property({ type: 'string', length: 255, nullable: true })
  guid: string | null = null;

  /** The reported user (user reports). */
  @ManyToOne({ entity: () => User, nullable: true, deleteRule: 'set null', index: true })
  user: User | null = null;

  /** The reported rating (rating reports). */
  @ManyToOne({ entity: () => Rating, nullable: true, deleteRule: 'set null', index: true })
  rating: Rating | null = null;

  /** The reported collection (collection reports). */
  @ManyToOne({ entity: () => Collection, nullable: true, deleteRule: 'set null', index: true })
  collection: Collection | null = null;

  /** An anonymous reporter's name and address, when given (the DSA's notice). */
  @Property({ type: 'string', length: 255, nullable: true })
  reporterName: string | null = null;

  @Property({ type: 'string', length: 255, nullable: true })
  reporterEmail: string | null = null;

  /** Where the reported content is (`amo`, `addon`, `both`). */
  @Property({ type: 'string', length: 16, nullable: true })
  location: string | null = null;

  /** With the reason `illegal`: the DSA category and subcategory. */
  @Property({ type: 'string', length: 64, nullable: true })
  illegalCategory: string | null = null;

  @Property({ type: 'string', length: 64, nullable: true })
  illegalSubcategory: string | null = null;

  /** Who reported (null: anonymous). */
  @ManyToOne({ entity: () => User, nullable: true, deleteRule: 'set null' })
  reporter: User | null = null;

  /** The reporter's address, as the original kept it (not shown by the APIs). */
  @Property({ type: 'string', length: 45, nullable: true })
  ipAddress: string | null = null;

  @Property({ type: 'text', default: '' })
  message: Opt<string> = '';

  @Property({ type: 'string', length: 32, nullable: true })
  reason: string | null = null;

  @Property({ type: 'string', length: 32, nullable: true })
  reportEntryPoint: string | null = null;

  @Property({ type: 'string', length: 32, nullable: true })
  addonInstallMethod: string | null = null;

  @Property({ type: 'string', length: 255, nullable: true })
  addonInstallOrigin: string | null = null;

  @Property({ type: 'string', length: 32, nullable: true })
  addonInstallSource: string | null = null;

  @Property({ type: 'string', length: 255, nullable: true })
  addonInstallSourceUrl: string | null = null;

  @Property({ type: 'string', length: 255, nullable: true })
  addonName: string | null = null;

  @Property({ type: 'string', length: 32, nullable: true })
  addonSignature: string | null = null;

  @Property({ type: 'string', length: 255, nullable: true })
  addonSummary: string | null = null;

  @Property({ type: 'string', length: 255, nullable: true })
  addonVersion: string | null = null;

  /** `browser` or `android`. */
  @Property({ type: 'string', length: 16, nullable: true })
  app: string | null = null;

  @Property({ type: 'string', length: 255, nullable: true })
  appversion: string | null = null;

  @Property({ type: 'string', length: 255, nullable: true })
  lang: string | null = null;

  /** The hashed telemetry client id. */
  @Property({ type: 'string', length: 64, nullable: true })
  clientId: string | null = null;

  @Property({ type: 'timestamptz', nullable: true })
  installDate: Date | null = null;

  @Property({ type: 'string', length: 255, nullable: true })
  operatingSystem: string | null = null;

  @Property({ type: 'string', length: 255, nullable: true })
  operatingSystemVersion: string | null = null;

  @Property({ type: 'timestamptz', defaultRaw: 'now()', index: true })
  created: Opt<Date> = new Date();

  /** Null while the report is open. */
  @Property({ type: 'timestamptz', nullable: true })
  resolvedAt: Date | null = null;

  @ManyToOne({ entity: () => User, nullable: true, deleteRule: 'set null' })
  resolvedBy: User | null = null;

  @Property({ type: 'text', default: '' })
  resolutionNote: Opt<string> = '';
}

/**
 * Recent accepted requests of one throttle key (`scope`: per user or per client address), kept in
 * the database so that the daily limit holds across processes. `hits` holds at most the limit's
 * number of timestamps, the ones still inside the window.
 */
@Entity({ tableName: 'abuse_throttles' })
export class AbuseThrottle {
  [PrimaryKeyProp]?: ['scope', 'key'];

  @PrimaryKey({ type: 'string', length: 16 })
  scope!: string;

  @PrimaryKey({ type: 'string', length: 64 })
  key!: string;

  @Property({ type: new ArrayType<string>(), columnType: 'timestamptz[]' })
  hits!: string[];

  @Property({ type: 'timestamptz', index: true })
  lastAt!: Date;
}
