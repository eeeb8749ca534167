import type { AddonRecord } from '../catalogue/catalogue.records.js';
import type { RequestContext } from '../core/context.js';
import { errors } from '../core/errors.js';
import { FieldErrorCollector } from '../core/field-errors.js';
import type { Translations } from '../core/i18n/translations.js';
import { checkCuratedAddonLength, curatedAddon, type CuratedAddonRules } from '../curation/curated-addon.js';
import { hasText, positionOf } from '../curation/curation.rules.js';
import { type PrimaryShelf, type SecondaryShelf, SecondaryShelfModule } from './shelf.entity.js';
import { isHttpUrl, MESSAGES, SECONDARY_MODULES, SHELF_GRADIENTS } from './shelves.rules.js';
import { SHELVES_TEXT_LIMITS } from './text-limits.js';

/*
 * The curation of hero shelves checked with the original's rules: the lengths of every field
 * first, then the rest; all problems at once, keyed by their REST names. A shelf changes only once
 * every check passed.
 */

export interface CtaInput {
  url?: string | null;
  text?: unknown;
}

/** Only the fields given change (`undefined`: not given); creation needs `addon`. */
export interface PrimaryShelfInput {
  addon?: string | null;
  description?: unknown;
  featuredImage?: string | null;
  gradient?: string | null;
  external?: boolean | null;
  enabled?: boolean | null;
  position?: number | null;
}

export interface ModuleInput {
  icon?: string | null;
  description?: unknown;
  cta?: CtaInput | null;
}

/** Only the fields given change; creation needs `headline`, `description` and the 3 `modules` (given modules replace all). */
export interface SecondaryShelfInput {
  headline?: unknown;
  description?: unknown;
  cta?: CtaInput | null;
  modules?: ModuleInput[] | null;
  enabled?: boolean | null;
  position?: number | null;
}

/** Applies `input` to `shelf` once every check passed; returns the shelf's add-on. */
export async function validatePrimary(
  ctx: RequestContext,
  shelf: PrimaryShelf,
  input: PrimaryShelfInput,
  creating: boolean,
  rules: CuratedAddonRules,
): Promise<AddonRecord> {
  const p = new FieldErrorCollector();
  // Lengths first.
  const description = p.translated(
    'description',
    input.description,
    shelf.description,
    ctx.locale,
    SHELVES_TEXT_LIMITS.shelfDescription,
  );
  const featuredImage = p.text(
    'featured_image',
    input.featuredImage,
    shelf.featuredImage,
    SHELVES_TEXT_LIMITS.shelfUrl,
  );
  checkCuratedAddonLength(p, input.addon);
  const { shelfGradient } = SHELVES_TEXT_LIMITS;
  if (input.gradient !== undefined && input.gradient !== null && input.gradient.length > shelfGradient) {
    p.add('gradient', MESSAGES.choice(input.gradient.slice(0, shelfGradient)));
  }
  // Then the rest.
  if (
    featuredImage !== null &&
    input.featuredImage !== undefined &&
    !p.has('featured_image') &&
    !isHttpUrl(featuredImage)
  ) {
    p.add('featured_image', MESSAGES.url);
  }
  let gradient = shelf.gradientColor;
  if (input.gradient !== undefined && !p.has('gradient')) {
    gradient = input.gradient?.trim() || null;
    if (gradient !== null && !(SHELF_GRADIENTS as readonly string[]).includes(gradient)) {
      p.add('gradient', MESSAGES.choice(gradient));
    }
  }
  const position = positionOf(p, 'position', input.position, shelf.position);
  const addon = await curatedAddon(ctx, p, input.addon, { creating, addon: shelf.addon }, rules);
  const external = input.external ?? shelf.isExternal;
  const enabled = input.enabled ?? shelf.enabled;
  if (enabled && !gradient && !p.has('gradient')) p.add('gradient', MESSAGES.gradient);
  if (addon && external && !hasText(addon.homepage)) p.add('external', MESSAGES.externalHomepage);
  p.throwIfAny();
  if (!addon) throw errors.notFound();
  ctx.em.assign(shelf, {
    addon: addon.id,
    description,
    featuredImage,
    gradientColor: gradient,
    isExternal: external,
    enabled,
    position,
  });
  return addon;
}

export function validateSecondary(
  ctx: RequestContext,
  shelf: SecondaryShelf,
  input: SecondaryShelfInput,
  creating: boolean,
) {
  const p = new FieldErrorCollector();
  const stored = creating ? null : shelf;
  const [headline, description] = p.translatedAll(ctx.locale, [
    ['headline', input.headline, stored?.headline ?? null, SHELVES_TEXT_LIMITS.secondaryHeadline],
    ['description', input.description, stored?.description ?? null, SHELVES_TEXT_LIMITS.secondaryDescription],
  ]);
  const cta = checkCta(ctx, p, 'cta', input.cta, { url: shelf.ctaUrl, text: shelf.ctaText });
  const modules =
    input.modules === undefined || input.modules === null
      ? null
      : input.modules.map((m, i) => checkModule(ctx, p, `modules.${i}`, m));
  // Then the rest.
  if (!p.has('headline') && !hasText(headline)) {
    p.add('headline', input.headline === undefined && creating ? MESSAGES.required : MESSAGES.blank);
  }
  if (!p.has('description') && !hasText(description)) {
    p.add('description', input.description === undefined && creating ? MESSAGES.required : MESSAGES.blank);
  }
  if (input.modules === null) p.add('modules', MESSAGES.notNull);
  else if (modules === null && creating) p.add('modules', MESSAGES.required);
  else if (modules !== null && modules.length !== SECONDARY_MODULES) p.add('modules', MESSAGES.modules);
  const position = positionOf(p, 'position', input.position, shelf.position);
  const enabled = input.enabled ?? shelf.enabled;
  if (enabled && !p.has('cta') && Boolean(cta.url) !== hasText(cta.text)) p.add('cta', MESSAGES.cta);
  p.throwIfAny();
  ctx.em.assign(shelf, {
    headline: headline!,
    description: description!,
    ctaUrl: cta.url,
    ctaText: cta.text,
    enabled,
    position,
  });
  if (modules) {
    shelf.modules.removeAll();
    modules.forEach((m, position) => {
      const module = ctx.em.create(SecondaryShelfModule, {
        shelf,
        position,
        icon: m.icon!,
        description: m.description!,
        ctaUrl: m.cta.url,
        ctaText: m.cta.text,
      });
      shelf.modules.add(module);
    });
  }
}

function checkModule(ctx: RequestContext, p: FieldErrorCollector, field: string, input: ModuleInput) {
  const icon = p.text(`${field}.icon`, input.icon ?? null, null, SHELVES_TEXT_LIMITS.shelfUrl);
  const description = p.translated(
    `${field}.description`,
    input.description ?? null,
    null,
    ctx.locale,
    SHELVES_TEXT_LIMITS.moduleDescription,
  );
  const cta = checkCta(ctx, p, `${field}.cta`, input.cta ?? null, { url: null, text: null });
  if (!p.has(`${field}.icon`)) {
    if (icon === null) p.add(`${field}.icon`, MESSAGES.required);
    else if (!isHttpUrl(icon)) p.add(`${field}.icon`, MESSAGES.url);
  }
  if (!p.has(`${field}.description`) && !hasText(description)) p.add(`${field}.description`, MESSAGES.required);
  if (!p.has(`${field}.cta`) && Boolean(cta.url) !== hasText(cta.text)) p.add(`${field}.cta`, MESSAGES.cta);
  return { icon, description, cta };
}

/** A call to action: given replaces (null clears), not given keeps `stored`. */
function checkCta(
  ctx: RequestContext,
  p: FieldErrorCollector,
  field: string,
  input: CtaInput | null | undefined,
  stored: { url: string | null; text: Translations | null },
): { url: string | null; text: Translations | null } {
  if (input === undefined) return stored;
  if (input === null) return { url: null, text: null };
  const url = p.text(`${field}.url`, input.url ?? null, null, SHELVES_TEXT_LIMITS.shelfUrl);
  const text = p.translated(`${field}.text`, input.text ?? null, null, ctx.locale, SHELVES_TEXT_LIMITS.ctaText);
  if (url !== null && !p.has(`${field}.url`) && !isHttpUrl(url)) p.add(`${field}.url`, MESSAGES.url);
  return { url, text };
}
