import { addonById } from '../catalogue/catalogue.loaders.js';
import type { AddonRecord } from '../catalogue/catalogue.records.js';
import { isPublicAddon } from '../catalogue/public.js';
import type { CollectionItemsService } from '../collections/collection-items.service.js';
import type { RequestContext } from '../core/context.js';
import { AppError, errors } from '../core/errors.js';
import { FieldErrorCollector } from '../core/field-errors.js';
import { fieldMessages } from '../core/messages.js';
import type { Translations } from '../core/i18n/translations.js';
import type { CuratedKind, CurationLog, Facts } from '../curation/curation-log.js';
import { hasText, positionOf } from '../curation/curation.rules.js';
import type { SearchService } from '../search/search.service.js';
import { HomeShelf } from './home-shelf.entity.js';
import {
  defaultAddonCount,
  HOME_SHELF_ENDPOINTS,
  HOME_SHELF_TYPES,
  shelfSearch,
  type HomeShelfEndpoint,
} from './home-shelf.criteria.js';
import { isHttpUrl } from './shelves.rules.js';
import { listShelves } from './shelves.access.js';
import { SHELVES_TEXT_LIMITS } from './text-limits.js';

/** Only the fields given change (`undefined`: not given); creation needs title, endpoint, addonType and criteria. */
export interface HomeShelfInput {
  title?: unknown;
  endpoint?: string | null;
  addonType?: string | null;
  criteria?: string | null;
  footerText?: unknown;
  footerPathname?: string | null;
  addonCount?: number | null;
  enabled?: boolean | null;
  position?: number | null;
}

/** A home shelf as shown. */
export interface HomeShelfView {
  id: number;
  title: Translations;
  endpoint: HomeShelfEndpoint;
  addonType: number;
  criteria: string;
  footerText: Translations | null;
  footerPathname: string | null;
  /** The stored count (0: the type's default). */
  addonCount: number;
  /** How many add-ons are shown. */
  shownCount: number;
  /** The account whose collection a `collections` shelf lists; null for searches. */
  collectionOwner: string | null;
  enabled: boolean;
  position: number;
}

/** The largest add-on count of a shelf (the texts' limits are in text-limits.ts). */
export const HOME_SHELF_LIMITS = { addonCount: 100 };

const MESSAGES = {
  required: fieldMessages.required,
  notNull: fieldMessages.null,
  blank: fieldMessages.blank,
  choice: fieldMessages.choice,
  count: `Ensure this value is between 0 and ${HOME_SHELF_LIMITS.addonCount}.`,
  collection: (slug: string) => `No collection "${slug}" of the vendor's account is listed.`,
  pathname: 'Enter a site pathname (starting with "/") or an http(s) URL.',
} as const;

/**
 * The home page's shelves (the original's `shelves` app): curated by `Admin:Curation` holders
 * (checked at save: a search shelf's criteria must be a search the search service accepts, a
 * collection shelf's slug a listed collection of the vendor's account), logged in the curation
 * log; shown in position order when enabled, each with the add-ons its search or collection
 * lists today (public ones only, the shelf's count at most).
 */
export class HomeShelvesService {
  constructor(
    private readonly search: SearchService,
    private readonly collectionItems: CollectionItemsService,
    private readonly log: CurationLog,
    /** The vendor's account (VENDOR_COLLECTIONS_USER): collection shelves list its collections. */
    private readonly vendorUsername: string,
  ) {}

  /** Enabled shelves in position order (`all`: disabled ones too, `Admin:Curation` only). */
  async shelves(ctx: RequestContext, all = false): Promise<HomeShelfView[]> {
    listShelves(ctx, all);
    const shelves = await ctx.em.find(HomeShelf, all ? {} : { enabled: true }, {
      orderBy: [{ position: 'asc' }, { id: 'asc' }],
    });
    return shelves.map((shelf) => this.view(shelf));
  }

  /**
   * The add-ons a shelf shows now. A search or collection that stopped answering (a category or
   * collection removed since) shows none rather than failing the home page.
   */
  async addons(ctx: RequestContext, shelf: HomeShelfView): Promise<AddonRecord[]> {
    try {
      return await this.list(ctx, shelf.endpoint, shelf.criteria, shelf.addonType, shelf.shownCount);
    } catch (error) {
      if (error instanceof AppError) return [];
      throw error;
    }
  }

  async create(ctx: RequestContext, input: HomeShelfInput): Promise<HomeShelfView> {
    const shelf = new HomeShelf();
    await this.validate(ctx, shelf, input, true);
    await this.log.create(ctx, HOME, shelf);
    return this.view(shelf);
  }

  async update(ctx: RequestContext, id: number, input: HomeShelfInput): Promise<HomeShelfView> {
    const shelf = await ctx.em.findOne(HomeShelf, { id });
    if (!shelf) throw errors.notFound();
    const before = HOME.facts(shelf);
    await this.validate(ctx, shelf, input, false);
    await this.log.update(ctx, HOME, shelf, before);
    return this.view(shelf);
  }

  async delete(ctx: RequestContext, id: number): Promise<boolean> {
    const shelf = await ctx.em.findOne(HomeShelf, { id });
    if (!shelf) throw errors.notFound();
    await this.log.delete(ctx, HOME, shelf);
    return true;
  }

  private async list(
    ctx: RequestContext,
    endpoint: string,
    criteria: string,
    type: number,
    count: number,
  ): Promise<AddonRecord[]> {
    if (endpoint === 'collections') {
      const page = await this.collectionItems.listItems(ctx, this.vendorUsername, criteria, null, null, 1, count);
      const addons = await ctx.loaders.get(addonById).loadMany(page.items.map((item) => item.addon.id));
      return addons.filter((a): a is AddonRecord => a !== null && !(a instanceof Error) && isPublicAddon(a));
    }
    const search = shelfSearch(criteria, type);
    if ('problem' in search) throw errors.badParameter(search.problem);
    const page = await this.search.search(ctx, search.filters, search.sort, 1, count);
    return page.items.map((hit) => hit.addon);
  }

  private view(shelf: HomeShelf): HomeShelfView {
    const endpoint = shelf.endpoint as HomeShelfEndpoint;
    return {
      id: shelf.id,
      title: shelf.title,
      endpoint,
      addonType: shelf.addonType,
      criteria: shelf.criteria,
      footerText: shelf.footerText,
      footerPathname: shelf.footerPathname,
      addonCount: shelf.addonCount,
      shownCount: shelf.addonCount || defaultAddonCount(shelf.addonType),
      collectionOwner: endpoint === 'collections' ? this.vendorUsername : null,
      enabled: shelf.enabled,
      position: shelf.position,
    };
  }

  /** Applies `input` to `shelf` once every check passed (lengths first, then choices, then the listing itself). */
  private async validate(ctx: RequestContext, shelf: HomeShelf, input: HomeShelfInput, creating: boolean) {
    const p = new FieldErrorCollector();
    const [title, footerText] = p.translatedAll(ctx.locale, [
      ['title', input.title, creating ? null : shelf.title, SHELVES_TEXT_LIMITS.homeShelfTitle],
      ['footer_text', input.footerText, shelf.footerText, SHELVES_TEXT_LIMITS.homeShelfFooter],
    ]);
    const criteria =
      input.criteria == null
        ? input.criteria
        : p.text('criteria', input.criteria, null, SHELVES_TEXT_LIMITS.homeShelfCriteria);
    const pathname =
      input.footerPathname === undefined
        ? undefined
        : p.text('footer_pathname', input.footerPathname, null, SHELVES_TEXT_LIMITS.shelfUrl);

    if (!p.has('title') && !hasText(title)) {
      p.add('title', input.title === undefined && creating ? MESSAGES.required : MESSAGES.blank);
    }
    const endpoint = this.choice(p, 'endpoint', input.endpoint, creating, HOME_SHELF_ENDPOINTS, shelf.endpoint);
    const typeName = this.choice(p, 'addon_type', input.addonType, creating, Object.keys(HOME_SHELF_TYPES), null);
    const addonType = typeName ? HOME_SHELF_TYPES[typeName] : shelf.addonType;
    let newCriteria = shelf.criteria;
    if (input.criteria === undefined && creating) p.add('criteria', MESSAGES.required);
    else if (input.criteria === null) p.add('criteria', MESSAGES.notNull);
    else if (input.criteria !== undefined && !p.has('criteria')) {
      if (!criteria) p.add('criteria', MESSAGES.blank);
      else newCriteria = criteria;
    }
    let footerPathname = shelf.footerPathname;
    if (pathname !== undefined && !p.has('footer_pathname')) {
      footerPathname = pathname || null;
      if (footerPathname && !isPathname(footerPathname) && !isHttpUrl(footerPathname)) {
        p.add('footer_pathname', MESSAGES.pathname);
      }
    }
    let addonCount = shelf.addonCount;
    if (input.addonCount !== undefined && input.addonCount !== null) {
      const { addonCount: max } = HOME_SHELF_LIMITS;
      if (!Number.isInteger(input.addonCount) || input.addonCount < 0 || input.addonCount > max) {
        p.add('addon_count', MESSAGES.count);
      } else addonCount = input.addonCount;
    }
    const position = positionOf(p, 'position', input.position, shelf.position);
    const enabled = input.enabled ?? shelf.enabled;
    // The listing itself, once its parts are valid: the search service or the collection answers.
    if (!p.has('endpoint') && !p.has('addon_type') && !p.has('criteria') && endpoint && newCriteria) {
      const problem = await this.listingProblem(ctx, endpoint, newCriteria, addonType);
      if (problem) p.add('criteria', problem);
    }
    p.throwIfAny();
    ctx.em.assign(shelf, {
      title: title!,
      endpoint: endpoint!,
      addonType,
      criteria: newCriteria,
      footerText: hasText(footerText) ? footerText : null,
      footerPathname,
      addonCount,
      enabled,
      position,
    });
  }

  /**
   * What is wrong with a shelf's listing, if anything: the search service checks the search (without
   * running it: the write's transaction is open), the collection must be a listed one of the vendor's.
   */
  private async listingProblem(
    ctx: RequestContext,
    endpoint: string,
    criteria: string,
    type: number,
  ): Promise<string | null> {
    try {
      if (endpoint === 'collections') {
        await this.collectionItems.listItems(ctx, this.vendorUsername, criteria, null, null, 1, 1);
        return null;
      }
      const search = shelfSearch(criteria, type);
      if ('problem' in search) return search.problem;
      await this.search.check(ctx, search.filters, search.sort);
      return null;
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      return endpoint === 'collections' ? MESSAGES.collection(criteria) : error.message;
    }
  }

  private choice<T extends string>(
    p: FieldErrorCollector,
    field: string,
    input: string | null | undefined,
    creating: boolean,
    choices: readonly T[],
    stored: string | null,
  ): T | null {
    if (input === undefined) {
      if (creating) p.add(field, MESSAGES.required);
      return stored as T | null;
    }
    if (input === null) {
      p.add(field, MESSAGES.notNull);
      return null;
    }
    if (input.length > 20 || !(choices as readonly string[]).includes(input)) {
      p.add(field, MESSAGES.choice(input.slice(0, 20)));
      return null;
    }
    return input as T;
  }
}

/** A site pathname: `/`, then no second `/` (not a protocol-relative URL) and no spaces. */
function isPathname(value: string): boolean {
  return /^\/(?!\/)\S*$/.test(value);
}

const HOME: CuratedKind<HomeShelf> = { subject: 'home_shelf', key: 'shelf', facts: homeFacts };

function homeFacts(shelf: HomeShelf): Facts {
  return {
    title: shelf.title,
    endpoint: shelf.endpoint,
    addonType: shelf.addonType,
    criteria: shelf.criteria,
    footerText: shelf.footerText,
    footerPathname: shelf.footerPathname,
    addonCount: shelf.addonCount,
    enabled: shelf.enabled,
    position: shelf.position,
  };
}
