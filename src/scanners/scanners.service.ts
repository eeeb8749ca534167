import type { EntityManager } from '@mikro-orm/postgresql';
import { Permission } from '../access/permissions.js';
import { Addon } from '../catalogue/addon.entity.js';
import { FileStatus } from '../catalogue/catalogue.enums.js';
import type { AddonLifecycle } from '../catalogue/lifecycle/lifecycle.service.js';
import { isChannelReviewer } from '../catalogue/version-access.js';
import { Version } from '../catalogue/version.entity.js';
import type { RequestContext } from '../core/context.js';
import { errors } from '../core/errors.js';
import { FieldErrorCollector } from '../core/field-errors.js';
import type { Logger } from '../core/logger.js';
import type { Database } from '../db/database.js';
import type { JobQueue } from '../jobs/queue.port.js';
import type { ServiceJobs } from '../jobs/service-jobs.js';
import { flagForHumanReview, HumanReviewReason } from '../reviews/human-review.js';
import { AddonReviewerFlags, ReviewNote } from '../reviews/review.entity.js';
import { ReviewAction } from '../reviews/review.enums.js';
import { readZip, type ZipLimits, type ZipMember } from '../archive/zip.js';
import type { Storage } from '../storage/storage.port.js';
import { LookalikeNames } from './lookalike-names.js';
import { Scanner, ScannerAction, ScannerResult, ScannerRule, type ScannerMatch } from './scanner.entity.js';
import { centralDirectory, scanChangedSecrets, type PreviousPackage } from './changed-files.js';
import { yaraCompileError, yaraScan } from './yara.js';

/** Who edits YARA rules, and who reads them (the original's scanners admin permissions). */
export const SCANNERS_RULES_EDIT = [Permission.ADMIN_SCANNERS_RULES_EDIT] as const;
export const SCANNERS_RULES_VIEW = [
  Permission.ADMIN_SCANNERS_RULES_VIEW,
  Permission.ADMIN_SCANNERS_RULES_EDIT,
] as const;

/** How long a "delay" action holds automatic approval back (the original's default: 24 hours). */
export const DELAY_AUTO_APPROVAL_HOURS = 24;
/** Every scanner's result is stored for each version scanned. */
const SCANNERS = [Scanner.YARA, Scanner.SECRETS, Scanner.LOOKALIKE] as const;

/** What the scanners that read the package found (YARA and secrets). */
export interface PackageScan {
  yara: ScannerMatch[];
  secrets: ScannerMatch[];
}

/** The action of a secret found in a package, and of a look-alike name. */
export const SECRETS_ACTION = ScannerAction.FLAG_FOR_HUMAN_REVIEW;
export const LOOKALIKE_ACTION = ScannerAction.FLAG_FOR_HUMAN_REVIEW;

export interface ScannerRuleInput {
  name?: string | null;
  definition?: string | null;
  action?: ScannerAction | null;
  isActive?: boolean | null;
}

export interface ScannersOptions {
  /** The trademark words taken out of names before comparing them (VENDOR_NAME, BROWSER_NAME). */
  trademarks: readonly string[];
  limits?: Partial<ZipLimits>;
}

/**
 * The scanners run on every version made from an upload (`scan-version`, after validation): YARA
 * rules, secrets, look-alike names. Results are stored per version and scanner; the strongest
 * action of the matches applies, and only then is an automatically signed version signed.
 */
export class ScannersService {
  constructor(
    private readonly db: Database,
    private readonly files: Storage,
    private readonly jobs: JobQueue<ServiceJobs>,
    private readonly lifecycle: AddonLifecycle,
    private readonly logger: Logger,
    private readonly options: ScannersOptions,
  ) {
    this.names = new LookalikeNames(options.trademarks);
    // Every ORM write of an add-on's name (any entity manager: forks share the event manager).
    db.orm.em.getEventManager().registerSubscriber(this.names);
  }

  /** The stored look-alike keys of add-on names (kept with the name; see lookalike-names.ts). */
  readonly names: LookalikeNames;

  // Rules (admins)

  listRules(ctx: RequestContext): Promise<ScannerRule[]> {
    return ctx.em.find(ScannerRule, {}, { orderBy: { id: 'asc' } });
  }

  async createRule(ctx: RequestContext, input: ScannerRuleInput): Promise<ScannerRule> {
    const values = await this.validRule(ctx.em, input, null);
    const rule = ctx.em.create(ScannerRule, values);
    await ctx.em.flush();
    return rule;
  }

  /** Changes a rule (`isActive: false` disables it: it is no longer run). */
  async updateRule(ctx: RequestContext, id: number, input: ScannerRuleInput): Promise<ScannerRule> {
    const rule = await ctx.em.findOne(ScannerRule, { id });
    if (!rule) throw errors.notFound();
    ctx.em.assign(rule, { ...(await this.validRule(ctx.em, input, rule)), modified: new Date() });
    await ctx.em.flush();
    return rule;
  }

  private async validRule(em: EntityManager, input: ScannerRuleInput, existing: ScannerRule | null) {
    const fields = new FieldErrorCollector();
    const name = (input.name ?? existing?.name ?? '').trim();
    const definition = input.definition ?? existing?.definition ?? '';
    if (!name) fields.add('name', 'This field may not be blank.');
    else if (name.length > 200) fields.add('name', 'Ensure this field has no more than 200 characters.');
    else if (await em.count(ScannerRule, { name, ...(existing ? { id: { $ne: existing.id } } : {}) })) {
      fields.add('name', 'A rule with this name already exists.');
    }
    if (!definition.trim()) fields.add('definition', 'This field may not be blank.');
    else if (definition.length > 100_000)
      fields.add('definition', 'Ensure this field has no more than 100000 characters.');
    else fields.check('definition', await yaraCompileError(definition));
    const action = input.action ?? existing?.action ?? ScannerAction.NO_ACTION;
    if (fields.has()) throw errors.validation(fields.fields);
    return { name, definition, action, isActive: input.isActive ?? existing?.isActive ?? true };
  }

  // Results (reviewers)

  /** A version's results, for reviewers of its channel; null for anyone else. */
  async resultsFor(ctx: RequestContext, version: { id: number; channel: number }): Promise<ScannerResult[] | null> {
    if (!isChannelReviewer(ctx.viewer, version.channel)) return null;
    return ctx.em.find(ScannerResult, { version: version.id }, { orderBy: { scanner: 'asc' } });
  }

  // The job

  /**
   * The scanners that read the package (YARA, secrets) on its files, read once by the caller (the
   * validation job runs this beside the linter). Secrets are looked for only in the files that
   * changed since the add-on's previous version (`exceptVersionId`: the version being scanned).
   */
  async scanPackage(
    em: EntityManager,
    members: readonly ZipMember[],
    addonId: number | null,
    exceptVersionId: number | null = null,
  ): Promise<PackageScan> {
    const previous = addonId === null ? null : await this.previousPackage(em, addonId, exceptVersionId);
    const [yara, secrets] = await Promise.all([
      this.yara(em, members),
      Promise.resolve(scanChangedSecrets(members, previous).findings),
    ]);
    return { yara, secrets: secrets.map((f) => ({ ...f, action: SECRETS_ACTION })) };
  }

  /**
   * `scan-version`: runs the scanners (the package's scan from `prepared` when the caller already
   * made it on the same read), stores their results and applies the strongest action, once: a
   * version whose results are stored was scanned and acted on in that transaction, and is not
   * scanned again when the job runs twice. True when `sign` and no action holds the version back:
   * the caller signs it now (a delay queues `sign-version` for later; a flag or block, nothing).
   */
  async scanVersion(
    versionId: number,
    sign: boolean,
    prepared: { members?: readonly ZipMember[]; scan?: PackageScan } = {},
  ): Promise<boolean> {
    const em = this.db.fork();
    const version = await em.findOne(Version, versionId, { populate: ['files', 'addon'] });
    if (!version || version.deleted) return false;
    const stored = await em.find(ScannerResult, { version: versionId });
    if (stored.length >= SCANNERS.length) return sign && strongest(stored) === ScannerAction.NO_ACTION;
    const scan =
      prepared.scan ??
      (await this.scanPackage(em, prepared.members ?? (await this.members(version)), version.addon.id, versionId));
    const results = [
      { scanner: Scanner.YARA, matches: scan.yara },
      { scanner: Scanner.SECRETS, matches: scan.secrets },
      { scanner: Scanner.LOOKALIKE, matches: await this.lookalike(em, version.addon) },
    ];
    const signNow = await em.transactional(async (tx) => {
      for (const { scanner, matches } of results) {
        const action = strongest(matches);
        const existing = await tx.findOne(ScannerResult, { version: versionId, scanner });
        if (existing) tx.assign(existing, { matches, action });
        else tx.create(ScannerResult, { version: tx.getReference(Version, versionId), scanner, matches, action });
      }
      await tx.flush();
      return this.apply(tx, version, results, sign);
    });
    this.logger.info(
      { version: versionId, matches: results.map((r) => `${r.scanner}:${r.matches.length}`).join(' ') },
      'version scanned',
    );
    return signNow;
  }

  /** The add-on's latest other version with a package and secrets results, as the secrets scan reuses it. */
  private async previousPackage(
    em: EntityManager,
    addonId: number,
    exceptVersionId: number | null,
  ): Promise<PreviousPackage | null> {
    const previous = await em.findOne(
      Version,
      { addon: addonId, ...(exceptVersionId === null ? {} : { id: { $ne: exceptVersionId } }) },
      { orderBy: { id: 'desc' }, populate: ['files'] },
    );
    const file = previous?.files.getItems()[0];
    if (!previous || !file) return null;
    const result = await em.findOne(ScannerResult, { version: previous.id, scanner: Scanner.SECRETS });
    if (!result) return null;
    const local = await this.files.localFile(file.storageKey);
    if (!local) return null;
    try {
      const members = await centralDirectory(local.path);
      if (!members) return null;
      const findings = result.matches.flatMap((m) =>
        m.file !== undefined && m.line !== undefined ? [{ rule: m.rule, file: m.file, line: m.line }] : [],
      );
      return { members, findings };
    } finally {
      await local.release();
    }
  }

  private async members(version: Version): Promise<ZipMember[]> {
    const members: ZipMember[] = [];
    for (const file of version.files.getItems()) {
      const local = await this.files.localFile(file.storageKey);
      if (!local) throw new Error(`file ${file.id}: ${file.storageKey} missing from storage`);
      try {
        members.push(...(await readZip(local.path, this.options.limits)));
      } finally {
        await local.release();
      }
    }
    return members;
  }

  private async yara(em: EntityManager, members: readonly ZipMember[]): Promise<ScannerMatch[]> {
    const rules = await em.find(ScannerRule, { scanner: Scanner.YARA, isActive: true }, { orderBy: { id: 'asc' } });
    const byId = new Map(rules.map((rule) => [rule.id, rule]));
    const matches = await yaraScan(rules, members);
    return matches.map((match) => ({
      rule: byId.get(match.ruleId)!.name,
      file: match.file,
      action: byId.get(match.ruleId)!.action,
    }));
  }

  /**
   * For a new add-on (this is its first version): public add-ons (the one definition,
   * `publicAddonSql`) whose name looks like one of its names, found through the stored keys
   * (`LookalikeNames`: indexed, never a read of the catalogue).
   */
  private async lookalike(em: EntityManager, addon: Addon): Promise<ScannerMatch[]> {
    if ((await em.count(Version, { addon: addon.id })) > 1) return [];
    const hits = await this.names.find(em, addon);
    return hits.map((hit) => ({ rule: 'lookalike', addonId: hit.addonId, name: hit.name, action: LOOKALIKE_ACTION }));
  }

  private async apply(
    tx: EntityManager,
    version: Version,
    results: readonly { scanner: Scanner; matches: readonly ScannerMatch[] }[],
    sign: boolean,
  ): Promise<boolean> {
    const hits = results.flatMap((r) => r.matches.map((m) => ({ scanner: r.scanner, ...m })));
    const action = strongest(hits);
    const acting = hits.filter((hit) => hit.action === action);
    if (action === ScannerAction.BLOCK) {
      await this.reject(tx, version, acting);
      return false;
    }
    if (action === ScannerAction.FLAG_FOR_HUMAN_REVIEW) {
      const [first] = acting;
      await flagForHumanReview(tx, version.id, HumanReviewReason.SCANNER_ACTION, {
        scanner: first!.scanner,
        rule: first!.rule,
        matches: acting.slice(0, 20),
      });
      return false;
    }
    if (action === ScannerAction.DELAY_AUTO_APPROVAL) {
      const delaySeconds = DELAY_AUTO_APPROVAL_HOURS * 3600;
      const until = new Date(Date.now() + delaySeconds * 1000);
      const flags =
        (await tx.findOne(AddonReviewerFlags, { addon: version.addon.id })) ??
        tx.create(AddonReviewerFlags, { addon: tx.getReference(Addon, version.addon.id) });
      if (!flags.autoApprovalDelayedUntil || flags.autoApprovalDelayedUntil < until) {
        flags.autoApprovalDelayedUntil = until;
      }
      await tx.flush();
      if (sign)
        await this.jobs.send('sign-version', { versionId: version.id }, { transaction: tx, startAfter: delaySeconds });
      return false;
    }
    return sign;
  }

  /** The block action: the version is rejected (not signed, its waiting file disabled), once. */
  private async reject(tx: EntityManager, version: Version, acting: readonly ScannerMatch[]): Promise<void> {
    const waiting = version.files.getItems().some((file) => file.status === FileStatus.AWAITING_REVIEW);
    if (!waiting) return;
    const comments = `Rejected automatically: scanner rule ${acting.map((hit) => hit.rule).join(', ')} matched.`;
    const note = tx.create(ReviewNote, {
      addon: tx.getReference(Addon, version.addon.id),
      version: tx.getReference(Version, version.id),
      user: null,
      action: ReviewAction.REJECTED,
      comments,
    });
    await tx.flush();
    const current = await tx.findOneOrFail(Version, version.id, { populate: ['addon'] });
    await this.lifecycle.reviewDecided(tx, {
      version: current,
      noteId: note.id,
      decision: 'reject',
      actorId: null,
      comments,
    });
  }
}

function strongest(matches: readonly { action: ScannerAction }[]): ScannerAction {
  return matches.reduce<ScannerAction>((max, m) => (m.action > max ? m.action : max), ScannerAction.NO_ACTION);
}
