import { addonById } from '../catalogue/catalogue.loaders.js';
import { AddonStatus } from '../catalogue/catalogue.enums.js';
import type { AddonRecord, RowRef } from '../catalogue/catalogue.records.js';
import type { RequestContext } from '../core/context.js';
import type { FieldErrorCollector } from '../core/field-errors.js';
import { fieldMessages } from '../core/messages.js';
import { CURATION_TEXT_LIMITS } from './text-limits.js';

/** How a curated object (a hero shelf, a discovery item) finds and accepts the add-on it names. */
export interface CuratedAddonRules {
  /** An add-on by id, slug or guid (the catalogue's lookup). */
  find: (ctx: RequestContext, identifier: string) => Promise<AddonRecord | null>;
  /** A refusal of a found add-on (a duplicate item), or null to accept it. */
  refuse?: (found: AddonRecord) => Promise<string | null>;
}

/** The `addon` field's length, checked with the other lengths before anything else reads it. */
export function checkCuratedAddonLength(p: FieldErrorCollector, input: string | null | undefined): void {
  const max = CURATION_TEXT_LIMITS.curatedAddon;
  if (input && input.length > max) p.add('addon', fieldMessages.pkOrSlugDoesNotExist(input.slice(0, max)));
}

/**
 * The add-on of a curated object being created or changed: `input` (id, slug or guid; a deleted
 * add-on is unknown) replaces the stored one; required on creation, never null. Problems go to
 * `p` under `addon`; null when there is one (or none is known).
 */
export async function curatedAddon(
  ctx: RequestContext,
  p: FieldErrorCollector,
  input: string | null | undefined,
  stored: { creating: boolean; addon: RowRef | null | undefined },
  rules: CuratedAddonRules,
): Promise<AddonRecord | null> {
  if (input === undefined && stored.creating) p.add('addon', fieldMessages.required);
  else if (input === null) p.add('addon', fieldMessages.null);
  else if (input !== undefined && !p.has('addon')) {
    const found = await rules.find(ctx, input);
    if (!found || found.status === AddonStatus.DELETED) p.add('addon', fieldMessages.pkOrSlugDoesNotExist(input));
    else {
      const refusal = (await rules.refuse?.(found)) ?? null;
      if (refusal === null) return found;
      p.add('addon', refusal);
    }
  } else if (!stored.creating) {
    return ctx.loaders.get(addonById).load(stored.addon!.id);
  }
  return null;
}
