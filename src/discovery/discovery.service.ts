import { addonById } from '../catalogue/catalogue.loaders.js';
import { AddonType, PromotedCategory } from '../catalogue/catalogue.enums.js';
import type { AddonRecord } from '../catalogue/catalogue.records.js';
import type { CatalogueService } from '../catalogue/catalogue.service.js';
import { isPublicAddon } from '../catalogue/public.js';
import type { RequestContext } from '../core/context.js';
import { errors } from '../core/errors.js';
import { FieldErrorCollector } from '../core/field-errors.js';
import type { Translations } from '../core/i18n/translations.js';
import type { CuratedKind, CurationLog, Facts } from '../curation/curation-log.js';
import { checkCuratedAddonLength, curatedAddon } from '../curation/curated-addon.js';
import { hasText, positionOf } from '../curation/curation.rules.js';
import { DiscoveryItem } from './discovery.entity.js';
import { isClientId, recommendExtensions } from './recommendations.js';
import { DISCOVERY_TEXT_LIMITS } from './text-limits.js';

export const DiscoveryEdition = { DEFAULT: 'default', CHINA: 'china' } as const;
export type DiscoveryEdition = (typeof DiscoveryEdition)[keyof typeof DiscoveryEdition];

/** At most this many extensions of the list are replaced by recommendations. */
export const MAX_RECOMMENDATIONS = 4;

/** Only the fields given change; creation needs `addon`. */
export interface DiscoveryItemInput {
  addon?: string | null;
  customHeading?: unknown;
  customDescription?: unknown;
  position?: number | null;
  positionChina?: number | null;
}

/** A discovery item as shown (a recommendation has no id and no editorial texts). */
export interface DiscoveryItemView {
  id: number | null;
  position: number;
  positionChina: number;
  customHeading: Translations | null;
  customDescription: Translations | null;
  /** The editorial description, else the summary of an extension; null if none. */
  description: Translations | null;
  isRecommendation: boolean;
  addon: AddonRecord;
}

const DUPLICATE = 'Discovery item with this Addon already exists.';

/**
 * The discovery pane and its editorial content: items in editorial order (per edition), only
 * with public add-ons; with a valid telemetry client id, up to 4 extensions replaced by the
 * service's own recommendations (themes never, the count unchanged). Curated by `Admin:Curation`
 * holders, logged in the curation log.
 */
export class DiscoveryService {
  constructor(
    private readonly catalogue: CatalogueService,
    private readonly log: CurationLog,
  ) {}

  async items(
    ctx: RequestContext,
    edition: DiscoveryEdition,
    clientId: string | null | undefined,
  ): Promise<DiscoveryItemView[]> {
    const column = edition === DiscoveryEdition.CHINA ? 'positionChina' : 'position';
    const rows = await ctx.em.find(
      DiscoveryItem,
      { [column]: { $gt: 0 } },
      { orderBy: [{ [column]: 'asc' }, { id: 'asc' }] },
    );
    const views = (await this.withAddons(ctx, rows)).filter((item) => isPublicAddon(item.addon));
    if (edition === DiscoveryEdition.CHINA || !isClientId(clientId)) return views;
    const extensions = views.filter((item) => item.addon.type === AddonType.EXTENSION);
    const wanted = Math.min(MAX_RECOMMENDATIONS, extensions.length);
    const ids = await recommendExtensions(
      ctx,
      clientId,
      views.map((item) => item.addon.id),
      wanted,
    );
    const addons = (await ctx.loaders.get(addonById).loadMany(ids)).filter(
      (a): a is AddonRecord => !!a && !(a instanceof Error) && isPublicAddon(a) && a.type === AddonType.EXTENSION,
    );
    let next = 0;
    return views.map((item) => {
      if (item.addon.type !== AddonType.EXTENSION || next >= addons.length) return item;
      return recommendation(addons[next++]);
    });
  }

  /** Every item's editorial content (`recommended`: only add-ons promoted as recommended), in editorial order. */
  async editorial(ctx: RequestContext, recommended: boolean): Promise<DiscoveryItemView[]> {
    const rows = await ctx.em.find(DiscoveryItem, {}, { orderBy: [{ position: 'asc' }, { id: 'asc' }] });
    const views = await this.withAddons(ctx, rows);
    return recommended ? views.filter((item) => item.addon.promotedCategory === PromotedCategory.RECOMMENDED) : views;
  }

  private async withAddons(ctx: RequestContext, rows: DiscoveryItem[]): Promise<DiscoveryItemView[]> {
    const addons = await ctx.loaders.get(addonById).loadMany(rows.map((row) => row.addon.id));
    const views: DiscoveryItemView[] = [];
    rows.forEach((row, i) => {
      const addon = addons[i];
      if (addon && !(addon instanceof Error)) views.push(itemView(row, addon));
    });
    return views;
  }

  // ---- Curation (Admin:Curation, checked by the operations' @Requires) ----

  async create(ctx: RequestContext, input: DiscoveryItemInput): Promise<DiscoveryItemView> {
    const item = new DiscoveryItem();
    const addon = await this.validate(ctx, item, input, true);
    await this.log.create(ctx, ITEM, item);
    return itemView(item, addon);
  }

  async update(ctx: RequestContext, id: number, input: DiscoveryItemInput): Promise<DiscoveryItemView> {
    const item = await ctx.em.findOne(DiscoveryItem, { id });
    if (!item) throw errors.notFound();
    const before = facts(item);
    const addon = await this.validate(ctx, item, input, false);
    await this.log.update(ctx, ITEM, item, before);
    return itemView(item, addon);
  }

  async delete(ctx: RequestContext, id: number): Promise<boolean> {
    const item = await ctx.em.findOne(DiscoveryItem, { id });
    if (!item) throw errors.notFound();
    await this.log.delete(ctx, ITEM, item);
    return true;
  }

  private async validate(
    ctx: RequestContext,
    item: DiscoveryItem,
    input: DiscoveryItemInput,
    creating: boolean,
  ): Promise<AddonRecord> {
    const p = new FieldErrorCollector();
    // Lengths first.
    const stored = creating ? null : item;
    const limits = DISCOVERY_TEXT_LIMITS;
    const [heading, description] = p.translatedAll(ctx.locale, [
      ['custom_heading', input.customHeading, stored?.customHeading ?? null, limits.discoveryHeading],
      ['custom_description', input.customDescription, stored?.customDescription ?? null, limits.discoveryDescription],
    ]);
    checkCuratedAddonLength(p, input.addon);
    const position = positionOf(p, 'position', input.position, item.position ?? 0);
    const positionChina = positionOf(p, 'position_china', input.positionChina, item.positionChina ?? 0);
    const addon = await curatedAddon(
      ctx,
      p,
      input.addon,
      { creating, addon: item.addon },
      {
        find: (c, identifier) => this.catalogue.find(c, identifier),
        refuse: async (found) =>
          found.id !== item.addon?.id && (await ctx.em.count(DiscoveryItem, { addon: found.id })) ? DUPLICATE : null,
      },
    );
    p.throwIfAny();
    if (!addon) throw errors.notFound();
    ctx.em.assign(item, {
      addon: addon.id,
      customHeading: heading,
      customDescription: description,
      position,
      positionChina,
    });
    return addon;
  }
}

function itemView(item: DiscoveryItem, addon: AddonRecord): DiscoveryItemView {
  return {
    id: item.id,
    position: item.position,
    positionChina: item.positionChina,
    customHeading: item.customHeading,
    customDescription: item.customDescription,
    description: hasText(item.customDescription) ? item.customDescription : extensionSummary(addon),
    isRecommendation: false,
    addon,
  };
}

function recommendation(addon: AddonRecord): DiscoveryItemView {
  return {
    id: null,
    position: 0,
    positionChina: 0,
    customHeading: null,
    customDescription: null,
    description: extensionSummary(addon),
    isRecommendation: true,
    addon,
  };
}

/** Only extensions fall back to their summary (as in the original). */
function extensionSummary(addon: AddonRecord): Translations | null {
  return addon.type === AddonType.EXTENSION && hasText(addon.summary) ? addon.summary : null;
}

const ITEM: CuratedKind<DiscoveryItem> = { subject: 'discovery_item', key: 'item', facts };

function facts(item: DiscoveryItem): Facts {
  return {
    addon: item.addon?.id ?? null,
    customHeading: item.customHeading,
    customDescription: item.customDescription,
    position: item.position,
    positionChina: item.positionChina,
  };
}
