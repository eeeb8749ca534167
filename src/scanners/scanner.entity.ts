import { Entity, ManyToOne, PrimaryKey, Property, Unique, type Opt } from '@mikro-orm/core';
import { Version } from '../catalogue/version.entity.js';

/** The scanners run on every version made from an upload (the original's `scanners` app). */
export const Scanner = { YARA: 'yara', SECRETS: 'secrets', LOOKALIKE: 'lookalike' } as const;
export type Scanner = (typeof Scanner)[keyof typeof Scanner];

/**
 * What a match does, as the original's scanner actions: nothing, flag the version for a human
 * (an automatically signed one then waits in the queue), delay automatic approval (the add-on's
 * `autoApprovalDelayedUntil`, and the signature waits as long), or block (the version is rejected:
 * not signed, its file disabled). The strongest action of a version's matches applies.
 */
export const ScannerAction = { NO_ACTION: 0, FLAG_FOR_HUMAN_REVIEW: 1, DELAY_AUTO_APPROVAL: 2, BLOCK: 3 } as const;
export type ScannerAction = (typeof ScannerAction)[keyof typeof ScannerAction];

/** An admin's YARA rule (`Admin:ScannersRulesEdit`). */
@Entity({ tableName: 'scanners_rules' })
export class ScannerRule {
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @Property({ type: 'string', length: 200, unique: true })
  name!: string;

  @Property({ type: 'string', length: 20, default: Scanner.YARA })
  scanner: Opt<Scanner> = Scanner.YARA;

  /** The rule's YARA text; compiled when saved. */
  @Property({ type: 'text' })
  definition!: string;

  @Property({ type: 'smallint', default: ScannerAction.NO_ACTION })
  action: Opt<ScannerAction> = ScannerAction.NO_ACTION;

  @Property({ type: 'boolean', default: true })
  isActive: Opt<boolean> = true;

  @Property({ type: 'timestamptz', defaultRaw: 'now()' })
  created: Opt<Date> = new Date();

  @Property({ type: 'timestamptz', defaultRaw: 'now()' })
  modified: Opt<Date> = new Date();
}

/** One scanner's result for one version: its matches (rule, file, line where known) and the action taken. */
@Entity({ tableName: 'scanners_results' })
@Unique({ properties: ['version', 'scanner'] })
export class ScannerResult {
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @ManyToOne({ entity: () => Version, deleteRule: 'cascade' })
  version!: Version;

  @Property({ type: 'string', length: 20 })
  scanner!: Scanner;

  @Property({ type: 'jsonb' })
  matches!: ScannerMatch[];

  @Property({ type: 'smallint', default: ScannerAction.NO_ACTION })
  action: Opt<ScannerAction> = ScannerAction.NO_ACTION;

  @Property({ type: 'timestamptz', defaultRaw: 'now()' })
  created: Opt<Date> = new Date();
}

export interface ScannerMatch {
  /** The rule's name (a YARA rule, a secret rule, or `lookalike`). */
  rule: string;
  file?: string;
  line?: number;
  /** Look-alike names: the public add-on imitated. */
  addonId?: number;
  name?: string;
  action: ScannerAction;
}
