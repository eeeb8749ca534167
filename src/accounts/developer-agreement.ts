import type { RequestContext } from '../core/context.js';
import { errors } from '../core/errors.js';
import { FieldErrorCollector } from '../core/field-errors.js';
import { fieldMessages } from '../core/messages.js';
import { lengthProblem } from '../core/text-limits.js';
import type { User } from './user.entity.js';
import { ACCOUNTS_TEXT_LIMITS } from './text-limits.js';

/** The original's fallback date of the last agreement change (used when none is configured, or a future one). */
export const DEVELOPER_AGREEMENT_FALLBACK = new Date('2019-12-02T12:00:00Z');

/** DRF's message for a date-time it cannot read. */
export const DATETIME_FORMAT_MESSAGE =
  'Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z].';

const ISO_DATETIME =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,6}))?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/;

/**
 * An ISO 8601 date-time as DRF's `DateTimeField` reads one (a date-time without an offset is UTC),
 * or null when it is none. Its length is checked first (`agreementDate`), then the pattern.
 */
export function parseAgreementDate(value: string): Date | null {
  if (lengthProblem(value, ACCOUNTS_TEXT_LIMITS.agreementDate)) return null;
  const m = ISO_DATETIME.exec(value.trim());
  if (!m) return null;
  const [, y, mo, d, h, mi, s = '00', fraction = '', zone = 'Z'] = m;
  const offset = zone === 'Z' ? 'Z' : zone.length === 3 ? `${zone}:00` : `${zone.slice(0, 3)}:${zone.slice(-2)}`;
  const ms = fraction.padEnd(3, '0').slice(0, 3);
  const date = new Date(`${y}-${mo}-${d}T${h}:${mi}:${s}.${ms}${offset}`);
  // Out-of-range parts (month 13, 25:00) are no date-time either.
  if (Number.isNaN(date.getTime()) || Number(mo) > 12 || Number(d) > 31 || Number(h) > 23 || Number(mi) > 59) {
    return null;
  }
  return Number(s) > 59 ? null : date;
}

/** What accepting the agreement may carry (GraphQL `DeveloperAgreementInput`); absent fields are undefined. */
export interface DeveloperAgreementInput {
  displayName?: string | null;
  lastDeveloperAgreementChange?: string | null;
}

export interface DeveloperAgreementStatus {
  displayName: string | null;
  hasReadDeveloperAgreement: boolean;
  lastDeveloperAgreementChange: Date;
}

/**
 * The developer agreement: when it last changed (DEVELOPER_AGREEMENT_CHANGED, once reached; else
 * the original's fallback date), whether a user accepted that version (accepted after the change),
 * and accepting it. Accepting sets `readDevAgreement`, which API keys and uploads require. A
 * display name given while accepting follows the profile edit's rules (`checkDisplayName`).
 */
export class DeveloperAgreementService {
  constructor(
    private readonly checkDisplayName: (value: string | null) => string | null | string[],
    private readonly configured: Date | null = null,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** The date of the agreement in force. */
  lastChange(): Date {
    const configured = this.configured;
    return configured && configured.getTime() <= this.now().getTime() ? configured : DEVELOPER_AGREEMENT_FALLBACK;
  }

  /** Whether the user accepted the agreement in force (after its last change). */
  hasRead(user: Pick<User, 'readDevAgreement'>): boolean {
    return user.readDevAgreement !== null && user.readDevAgreement.getTime() > this.lastChange().getTime();
  }

  status(user: User): DeveloperAgreementStatus {
    return {
      displayName: user.displayName,
      hasReadDeveloperAgreement: this.hasRead(user),
      lastDeveloperAgreementChange: this.lastChange(),
    };
  }

  /**
   * Accepts the agreement in force. Without `input` (the GraphQL mutation's older form), only that.
   * With it, the original's checks: `lastDeveloperAgreementChange` is required and must be the date
   * in force (to the second: the APIs send it without fractions); a display name is refused when the
   * user has one, checked as profile edits check it, and required when they have none.
   */
  async accept(ctx: RequestContext, user: User, input?: DeveloperAgreementInput | null): Promise<User> {
    let displayName: string | null | undefined;
    if (input) {
      const problems = new FieldErrorCollector();
      const sent = input.lastDeveloperAgreementChange;
      if (sent === undefined || sent === null) {
        problems.add('last_developer_agreement_change', sent === null ? fieldMessages.null : fieldMessages.required);
      } else {
        const date = parseAgreementDate(sent);
        if (!date) problems.add('last_developer_agreement_change', DATETIME_FORMAT_MESSAGE);
        else if (Math.floor(date.getTime() / 1000) !== Math.floor(this.lastChange().getTime() / 1000)) {
          problems.add('last_developer_agreement_change', 'Invalid last_developer_agreement_change.');
        }
      }
      if (input.displayName !== undefined) {
        if (user.displayName) problems.add('display_name', 'User already has display_name.');
        else if (input.displayName === null) problems.add('display_name', fieldMessages.null);
        else {
          const checked = this.checkDisplayName(input.displayName);
          if (Array.isArray(checked)) problems.addAll('display_name', checked);
          else displayName = checked;
        }
      }
      problems.throwIfAny();
      // The rule across fields, once each field is valid (DRF's validate()).
      if (!user.displayName && !displayName) throw errors.field('display_name', 'display_name is required.');
    }
    if (displayName) user.displayName = displayName;
    if (!this.hasRead(user)) user.readDevAgreement = this.now();
    await ctx.em.flush();
    return user;
  }
}
