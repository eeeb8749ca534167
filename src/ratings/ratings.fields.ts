import type { EntityManager } from '@mikro-orm/postgresql';
import type { AddonRecord } from '../catalogue/catalogue.records.js';
import { visibleVersionSql } from '../catalogue/public.js';
import { FieldErrorCollector } from '../core/field-errors.js';
import { hasRatingLink } from '../core/has-links.js';
import { fieldMessages } from '../core/messages.js';
import { selectRows } from '../db/rows.js';
import { ratingMessages } from './ratings.errors.js';

/**
 * `<br>` becomes a line break; a text with a link waits for a moderator. The text is at most
 * TEXT_LIMITS.ratingBody long here (checked first), and the link test is linear anyway.
 */
export function cleanBody(body: string | null): { body: string | null; hasLink: boolean } {
  if (body === null) return { body, hasLink: false };
  const cleaned = body.replaceAll('<br>', '\n');
  let unquoted = cleaned;
  try {
    unquoted = decodeURIComponent(cleaned);
  } catch {
    // Not percent-encoded text: checked as it is.
  }
  return { body: cleaned, hasLink: hasRatingLink(unquoted) };
}

/** The ratings' field checks; problems gathered as the original's serializers do: all fields first, then one throw. */
export class RatingFieldErrors extends FieldErrorCollector {
  /** A text field: trimmed; never blank; undefined when absent and optional. */
  charField(
    field: string,
    value: string | null | undefined,
    rules: { required: boolean; allowNull: boolean; maxLength?: number },
  ): string | null | undefined {
    if (value === undefined) return rules.required ? this.add(field, fieldMessages.required) : undefined;
    if (value === null) return rules.allowNull ? null : this.add(field, fieldMessages.null);
    const text = value.trim();
    if (!text) return this.add(field, fieldMessages.blank);
    if (text.includes('\0')) return this.add(field, fieldMessages.nullCharacters);
    if (rules.maxLength !== undefined && text.length > rules.maxLength) {
      return this.add(field, fieldMessages.maxLength(rules.maxLength));
    }
    return text;
  }

  /** A score from 1 to 5; undefined when absent and optional. */
  score(field: string, value: number | null | undefined, required: boolean): number | null | undefined {
    if (value === undefined) return required ? this.add(field, fieldMessages.required) : undefined;
    if (value === null) return this.add(field, fieldMessages.null);
    if (value < 1) return this.add(field, fieldMessages.minValue(1));
    if (value > 5) return this.add(field, fieldMessages.maxValue(5));
    return value;
  }

  /** The version of a new rating: required, existing, and a public version of the add-on (when there is one). */
  async newVersion(
    em: EntityManager,
    versionId: number | null | undefined,
    addon: AddonRecord | null,
  ): Promise<number | null> {
    if (versionId === undefined) return this.add('version', fieldMessages.required);
    if (versionId === null) return this.add('version', fieldMessages.null);
    const [version] = await selectRows<{ addon_id: number; public: boolean }>(
      em,
      `select v.addon_id, ${visibleVersionSql('v')} as public from versions v where v.id = ?`,
      [versionId],
    );
    if (!version) return this.add('version', fieldMessages.pkDoesNotExist(versionId));
    if (addon && (version.addon_id !== addon.id || !version.public)) {
      return this.add('version', ratingMessages.versionNotPublic);
    }
    return versionId;
  }

  /** A version given to an existing rating: checked as a version first, then refused. */
  async versionChange(em: EntityManager, versionId: number | null) {
    if (versionId === null) return this.add('version', fieldMessages.null);
    const [version] = await selectRows(em, 'select id from versions where id = ?', [versionId]);
    this.add('version', version ? ratingMessages.versionChange : fieldMessages.pkDoesNotExist(versionId));
  }
}
