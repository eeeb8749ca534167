import { addonById } from '../catalogue/catalogue.loaders.js';
import { AddonStatus } from '../catalogue/catalogue.enums.js';
import type { AddonRecord } from '../catalogue/catalogue.records.js';
import type { CatalogueService } from '../catalogue/catalogue.service.js';
import { isDisabledAddon, isPublicAddon } from '../catalogue/public.js';
import type { RequestContext } from '../core/context.js';
import { errors } from '../core/errors.js';
import { FieldErrorCollector } from '../core/field-errors.js';
import { TEXT_LIMITS } from '../core/text-limits.js';
import type { Translations } from '../core/i18n/translations.js';
import { isHttpUrl, MESSAGES, SECONDARY_MODULES, SHELF_GRADIENT_START, SHELF_GRADIENTS } from './shelves.rules.js';
import type { CuratedKind, CurationLog, Facts } from '../curation/curation-log.js';
import { hasText, positionOf } from '../curation/curation.rules.js';
import { PrimaryShelf, SecondaryShelf, SecondaryShelfModule } from './shelf.entity.js';

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

export interface Gradient {
  start: string;
  end: string | null;
}

/** A primary shelf as shown: its add-on is loaded (and shown only when the rules allow). */
export interface PrimaryShelfView {
  id: number;
  position: number;
  enabled: boolean;
  isExternal: boolean;
  gradient: Gradient;
  featuredImage: string | null;
  /** The shelf's own description. */
  ownDescription: Translations | null;
  /** The shelf's description, else the add-on's summary. */
  description: Translations | null;
  addon: AddonRecord;
}

export interface CtaView {
  url: string;
  text: Translations | null;
}

export interface ModuleView {
  icon: string;
  description: Translations;
  cta: CtaView | null;
}

export interface SecondaryShelfView {
  id: number;
  position: number;
  enabled: boolean;
  headline: Translations;
  description: Translations;
  cta: CtaView | null;
  modules: ModuleView[];
}

/**
 * Hero shelves (primary and secondary): what the public sees (enabled shelves; primary ones only
 * with a public add-on, or for external ones an add-on neither deleted nor disabled) and their
 * curation by `Admin:Curation` holders, validated with the original's rules and logged in the
 * curation log.
 */
export class ShelvesService {
  constructor(
    private readonly catalogue: CatalogueService,
    private readonly log: CurationLog,
  ) {}

  // ---- Reads ----

  /**
   * Enabled primary shelves (`all`: disabled ones too, for `Admin:Curation` only: unpublished
   * editorial content) in position order, those whose add-on may be shown.
   */
  async primaryShelves(ctx: RequestContext, all = false): Promise<PrimaryShelfView[]> {
    if (all) this.curator(ctx);
    const shelves = await ctx.em.find(PrimaryShelf, all ? {} : { enabled: true }, {
      orderBy: [{ position: 'asc' }, { id: 'asc' }],
    });
    const addons = await ctx.loaders.get(addonById).loadMany(shelves.map((s) => s.addon.id));
    const views: PrimaryShelfView[] = [];
    shelves.forEach((shelf, i) => {
      const addon = addons[i];
      if (!addon || addon instanceof Error || !shownAddon(shelf.isExternal, addon)) return;
      views.push(primaryView(shelf, addon));
    });
    return views;
  }

  /** Enabled secondary shelves (`all`: disabled ones too, for `Admin:Curation` only) in position order. */
  async secondaryShelves(ctx: RequestContext, all = false): Promise<SecondaryShelfView[]> {
    if (all) this.curator(ctx);
    const shelves = await ctx.em.find(SecondaryShelf, all ? {} : { enabled: true }, {
      orderBy: [{ position: 'asc' }, { id: 'asc' }],
      populate: ['modules'],
    });
    return shelves.map(secondaryView);
  }

  /** One enabled primary shelf chosen at random among those shown; null when there is none. */
  async randomPrimaryShelf(ctx: RequestContext): Promise<PrimaryShelfView | null> {
    return pickOne(await this.primaryShelves(ctx));
  }

  async randomSecondaryShelf(ctx: RequestContext): Promise<SecondaryShelfView | null> {
    return pickOne(await this.secondaryShelves(ctx));
  }

  // ---- Curation (Admin:Curation, checked by the operations' @Requires) ----

  async createPrimaryShelf(ctx: RequestContext, input: PrimaryShelfInput): Promise<PrimaryShelfView> {
    const shelf = new PrimaryShelf();
    const addon = await this.validatePrimary(ctx, shelf, input, true);
    await this.log.create(ctx, PRIMARY, shelf);
    return primaryView(shelf, addon);
  }

  async updatePrimaryShelf(ctx: RequestContext, id: number, input: PrimaryShelfInput): Promise<PrimaryShelfView> {
    const shelf = await ctx.em.findOne(PrimaryShelf, { id });
    if (!shelf) throw errors.notFound();
    const before = PRIMARY.facts(shelf);
    const addon = await this.validatePrimary(ctx, shelf, input, false);
    await this.log.update(ctx, PRIMARY, shelf, before);
    return primaryView(shelf, addon);
  }

  async deletePrimaryShelf(ctx: RequestContext, id: number): Promise<boolean> {
    const shelf = await ctx.em.findOne(PrimaryShelf, { id });
    if (!shelf) throw errors.notFound();
    await this.log.delete(ctx, PRIMARY, shelf);
    return true;
  }

  async createSecondaryShelf(ctx: RequestContext, input: SecondaryShelfInput): Promise<SecondaryShelfView> {
    const shelf = new SecondaryShelf();
    this.validateSecondary(ctx, shelf, input, true);
    await this.log.create(ctx, SECONDARY, shelf);
    return secondaryView(shelf);
  }

  async updateSecondaryShelf(ctx: RequestContext, id: number, input: SecondaryShelfInput): Promise<SecondaryShelfView> {
    const shelf = await ctx.em.findOne(SecondaryShelf, { id }, { populate: ['modules'] });
    if (!shelf) throw errors.notFound();
    const before = SECONDARY.facts(shelf);
    this.validateSecondary(ctx, shelf, input, false);
    await this.log.update(ctx, SECONDARY, shelf, before);
    return secondaryView(shelf);
  }

  async deleteSecondaryShelf(ctx: RequestContext, id: number): Promise<boolean> {
    const shelf = await ctx.em.findOne(SecondaryShelf, { id }, { populate: ['modules'] });
    if (!shelf) throw errors.notFound();
    await this.log.delete(ctx, SECONDARY, shelf);
    return true;
  }

  /** `Admin:Curation`: 401 anonymous, 403 others. */
  curator(ctx: RequestContext): void {
    this.log.assertCurator(ctx);
  }

  // ---- Validation ----

  /** Applies `input` to `shelf` once every check passed; returns the shelf's add-on. */
  private async validatePrimary(
    ctx: RequestContext,
    shelf: PrimaryShelf,
    input: PrimaryShelfInput,
    creating: boolean,
  ): Promise<AddonRecord> {
    const p = new FieldErrorCollector();
    // Lengths first.
    const description = p.translated(
      'description',
      input.description,
      shelf.description,
      ctx.locale,
      'shelfDescription',
    );
    const featuredImage = p.text('featured_image', input.featuredImage, shelf.featuredImage, 'shelfUrl');
    const { curatedAddon, shelfGradient } = TEXT_LIMITS;
    if (input.addon !== undefined && input.addon !== null && input.addon.length > curatedAddon) {
      p.add('addon', MESSAGES.addon(input.addon.slice(0, curatedAddon)));
    }
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
    let addon: AddonRecord | null = null;
    if (input.addon === undefined && creating) p.add('addon', MESSAGES.required);
    else if (input.addon === null) p.add('addon', MESSAGES.notNull);
    else if (input.addon !== undefined && !p.has('addon')) {
      const found = await this.catalogue.find(ctx, input.addon);
      if (!found || found.status === AddonStatus.DELETED) p.add('addon', MESSAGES.addon(input.addon));
      else addon = found;
    } else if (!creating) {
      addon = await ctx.loaders.get(addonById).load(shelf.addon.id);
    }
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

  private validateSecondary(ctx: RequestContext, shelf: SecondaryShelf, input: SecondaryShelfInput, creating: boolean) {
    const p = new FieldErrorCollector();
    const isNew = creating;
    const headline = p.translated(
      'headline',
      input.headline,
      isNew ? null : shelf.headline,
      ctx.locale,
      'secondaryHeadline',
    );
    const description = p.translated(
      'description',
      input.description,
      isNew ? null : shelf.description,
      ctx.locale,
      'secondaryDescription',
    );
    const cta = this.cta(ctx, p, 'cta', input.cta, { url: shelf.ctaUrl, text: shelf.ctaText });
    const modules =
      input.modules === undefined || input.modules === null
        ? null
        : input.modules.map((m, i) => this.module(ctx, p, `modules.${i}`, m));
    // Then the rest.
    if (!p.has('headline') && !hasText(headline)) {
      p.add('headline', input.headline === undefined && isNew ? MESSAGES.required : MESSAGES.blank);
    }
    if (!p.has('description') && !hasText(description)) {
      p.add('description', input.description === undefined && isNew ? MESSAGES.required : MESSAGES.blank);
    }
    if (input.modules === null) p.add('modules', MESSAGES.notNull);
    else if (modules === null && isNew) p.add('modules', MESSAGES.required);
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

  private module(ctx: RequestContext, p: FieldErrorCollector, field: string, input: ModuleInput) {
    const icon = p.text(`${field}.icon`, input.icon ?? null, null, 'shelfUrl');
    const description = p.translated(
      `${field}.description`,
      input.description ?? null,
      null,
      ctx.locale,
      'moduleDescription',
    );
    const cta = this.cta(ctx, p, `${field}.cta`, input.cta ?? null, { url: null, text: null });
    if (!p.has(`${field}.icon`)) {
      if (icon === null) p.add(`${field}.icon`, MESSAGES.required);
      else if (!isHttpUrl(icon)) p.add(`${field}.icon`, MESSAGES.url);
    }
    if (!p.has(`${field}.description`) && !hasText(description)) p.add(`${field}.description`, MESSAGES.required);
    if (!p.has(`${field}.cta`) && Boolean(cta.url) !== hasText(cta.text)) p.add(`${field}.cta`, MESSAGES.cta);
    return { icon, description, cta };
  }

  /** A call to action: given replaces (null clears), not given keeps `stored`. */
  private cta(
    ctx: RequestContext,
    p: FieldErrorCollector,
    field: string,
    input: CtaInput | null | undefined,
    stored: { url: string | null; text: Translations | null },
  ): { url: string | null; text: Translations | null } {
    if (input === undefined) return stored;
    if (input === null) return { url: null, text: null };
    const url = p.text(`${field}.url`, input.url ?? null, null, 'shelfUrl');
    const text = p.translated(`${field}.text`, input.text ?? null, null, ctx.locale, 'ctaText');
    if (url !== null && !p.has(`${field}.url`) && !isHttpUrl(url)) p.add(`${field}.url`, MESSAGES.url);
    return { url, text };
  }
}

/** Non-external shelves need a public add-on; external ones one neither deleted nor disabled. */
function shownAddon(external: boolean, addon: AddonRecord): boolean {
  if (!external) return isPublicAddon(addon);
  return addon.status !== AddonStatus.DELETED && !isDisabledAddon(addon);
}

function pickOne<T>(items: T[]): T | null {
  return items.length ? items[Math.floor(Math.random() * items.length)] : null;
}

function primaryView(shelf: PrimaryShelf, addon: AddonRecord): PrimaryShelfView {
  return {
    id: shelf.id,
    position: shelf.position,
    enabled: shelf.enabled,
    isExternal: shelf.isExternal,
    gradient: { start: SHELF_GRADIENT_START, end: shelf.gradientColor },
    featuredImage: shelf.featuredImage,
    ownDescription: shelf.description,
    description: hasText(shelf.description) ? shelf.description : addon.summary,
    addon,
  };
}

function secondaryView(shelf: SecondaryShelf): SecondaryShelfView {
  return {
    id: shelf.id,
    position: shelf.position,
    enabled: shelf.enabled,
    headline: shelf.headline,
    description: shelf.description,
    cta: ctaView(shelf.ctaUrl, shelf.ctaText),
    modules: [...shelf.modules.getItems()]
      .sort((a, b) => a.position - b.position)
      .map((m) => ({ icon: m.icon, description: m.description, cta: ctaView(m.ctaUrl, m.ctaText) })),
  };
}

/** A call to action needs both its URL and its text (the original shows null otherwise). */
function ctaView(url: string | null, text: Translations | null): CtaView | null {
  return url && hasText(text) ? { url, text } : null;
}

const PRIMARY: CuratedKind<PrimaryShelf> = { subject: 'primary_shelf', key: 'shelf', facts: primaryFacts };
const SECONDARY: CuratedKind<SecondaryShelf> = { subject: 'secondary_shelf', key: 'shelf', facts: secondaryFacts };

function primaryFacts(shelf: PrimaryShelf): Facts {
  return {
    addon: shelf.addon?.id ?? null,
    description: shelf.description,
    featuredImage: shelf.featuredImage,
    gradient: shelf.gradientColor,
    external: shelf.isExternal,
    enabled: shelf.enabled,
    position: shelf.position,
  };
}

function secondaryFacts(shelf: SecondaryShelf): Facts {
  return {
    headline: shelf.headline,
    description: shelf.description,
    cta: { url: shelf.ctaUrl, text: shelf.ctaText },
    modules: [...shelf.modules.getItems()]
      .sort((a, b) => a.position - b.position)
      .map((m) => ({ icon: m.icon, description: m.description, cta: { url: m.ctaUrl, text: m.ctaText } })),
    enabled: shelf.enabled,
    position: shelf.position,
  };
}
