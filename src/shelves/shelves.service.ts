import { listShelves } from './shelves.access.js';
import { addonById } from '../catalogue/catalogue.loaders.js';
import type { CatalogueService } from '../catalogue/catalogue.service.js';
import type { RequestContext } from '../core/context.js';
import { errors } from '../core/errors.js';
import type { CuratedAddonRules } from '../curation/curated-addon.js';
import type { CuratedKind, CurationLog, Facts } from '../curation/curation-log.js';
import { PrimaryShelf, SecondaryShelf } from './shelf.entity.js';
import {
  validatePrimary,
  validateSecondary,
  type PrimaryShelfInput,
  type SecondaryShelfInput,
} from './shelves.validation.js';
import {
  pickOne,
  primaryView,
  secondaryView,
  shownAddon,
  type PrimaryShelfView,
  type SecondaryShelfView,
} from './shelves.views.js';

export type { CtaInput, ModuleInput, PrimaryShelfInput, SecondaryShelfInput } from './shelves.validation.js';
export type { CtaView, Gradient, ModuleView, PrimaryShelfView, SecondaryShelfView } from './shelves.views.js';

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
  /** How a primary shelf finds its add-on. */
  private readonly addonRules: CuratedAddonRules = { find: (ctx, identifier) => this.catalogue.find(ctx, identifier) };

  // ---- Reads ----

  /**
   * Enabled primary shelves (`all`: disabled ones too, for `Admin:Curation` only: unpublished
   * editorial content) in position order, those whose add-on may be shown.
   */
  async primaryShelves(ctx: RequestContext, all = false): Promise<PrimaryShelfView[]> {
    listShelves(ctx, all);
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
    listShelves(ctx, all);
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
    const addon = await validatePrimary(ctx, shelf, input, true, this.addonRules);
    await this.log.create(ctx, PRIMARY, shelf);
    return primaryView(shelf, addon);
  }

  async updatePrimaryShelf(ctx: RequestContext, id: number, input: PrimaryShelfInput): Promise<PrimaryShelfView> {
    const shelf = await ctx.em.findOne(PrimaryShelf, { id });
    if (!shelf) throw errors.notFound();
    const before = PRIMARY.facts(shelf);
    const addon = await validatePrimary(ctx, shelf, input, false, this.addonRules);
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
    validateSecondary(ctx, shelf, input, true);
    await this.log.create(ctx, SECONDARY, shelf);
    return secondaryView(shelf);
  }

  async updateSecondaryShelf(ctx: RequestContext, id: number, input: SecondaryShelfInput): Promise<SecondaryShelfView> {
    const shelf = await ctx.em.findOne(SecondaryShelf, { id }, { populate: ['modules'] });
    if (!shelf) throw errors.notFound();
    const before = SECONDARY.facts(shelf);
    validateSecondary(ctx, shelf, input, false);
    await this.log.update(ctx, SECONDARY, shelf, before);
    return secondaryView(shelf);
  }

  async deleteSecondaryShelf(ctx: RequestContext, id: number): Promise<boolean> {
    const shelf = await ctx.em.findOne(SecondaryShelf, { id }, { populate: ['modules'] });
    if (!shelf) throw errors.notFound();
    await this.log.delete(ctx, SECONDARY, shelf);
    return true;
  }
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
