import { AddonStatus } from '../../catalogue/catalogue.enums.js';
import type { CatalogueService } from '../../catalogue/catalogue.service.js';
import { publicAddonSql } from '../../catalogue/public.js';
import type { RequestContext } from '../../core/context.js';
import { errors } from '../../core/errors.js';
import { FieldErrorCollector } from '../../core/field-errors.js';
import { fieldMessages } from '../../core/messages.js';
import { toPage, type Page, type PageRequest } from '../../core/pagination.js';
import { lengthProblem } from '../../core/text-limits.js';
import type { CuratedKind, CurationLog } from '../../curation/curation-log.js';
import { selectRows } from '../../db/rows.js';
import { AddonBrowserMapping, type Browser } from './browser-mapping.entity.js';
import { CURATION_TEXT_LIMITS } from '../../curation/text-limits.js';
import { DISCOVERY_TEXT_LIMITS } from '../text-limits.js';

/** The original's page size for this list: 100 by default, and at most. */
export const BROWSER_MAPPINGS_PAGE_SIZE = 100;

/** A mapping as listed. */
export interface BrowserMappingView {
  browser: Browser;
  extensionId: string;
  addonGuid: string;
}

export interface BrowserMappingInput {
  browser: Browser;
  extensionId: string;
  /** The add-on's id, slug or guid. */
  addon: string;
}

const KIND: CuratedKind<AddonBrowserMapping> = {
  subject: 'browser_mapping',
  key: 'mapping',
  facts: (row) => ({ browser: row.browser, extension_id: row.extensionId, addon: row.addon.id }),
};

/**
 * Browser mappings (the original's): an extension of another browser and the add-on that replaces
 * it here, which the browser's "import extensions from Chrome" reads. The list shows only mappings
 * to public add-ons (not unlisted, disabled or deleted ones), in pages of up to 100. Curated by
 * `Admin:Curation` holders (the original's admin permission), each change in the curation log.
 */
export class BrowserMappingsService {
  constructor(
    private readonly catalogue: CatalogueService,
    private readonly log: CurationLog,
  ) {}

  async list(
    ctx: RequestContext,
    browser: Browser,
    page?: number | null,
    pageSize?: number | null,
  ): Promise<Page<BrowserMappingView>> {
    const request = mappingsPage(page, pageSize);
    const from = `from addon_browser_mappings m join addons a on a.id = m.addon_id
      where m.browser = ? and a.guid is not null and ${publicAddonSql('a')}`;
    const [{ count }] = await selectRows<{ count: number }>(ctx.em, `select count(*)::int as count ${from}`, [browser]);
    const rows = await selectRows<{ extension_id: string; guid: string }>(
      ctx.em,
      `select m.extension_id, a.guid ${from} order by m.id limit ? offset ?`,
      [browser, request.limit, request.offset],
    );
    const items = rows.map((row) => ({ browser, extensionId: row.extension_id, addonGuid: row.guid }));
    return toPage(request, count, items);
  }

  /** Maps an extension of `browser` to an add-on (created, or pointed at another add-on). */
  async set(ctx: RequestContext, input: BrowserMappingInput): Promise<BrowserMappingView> {
    const p = new FieldErrorCollector();
    const extensionId = input.extensionId.trim();
    if (
      !p.check('extension_id', lengthProblem(extensionId, DISCOVERY_TEXT_LIMITS.browserExtensionId)) &&
      !extensionId
    ) {
      p.add('extension_id', fieldMessages.blank);
    }
    const name = input.addon.trim();
    let addonId: number | null = null;
    let guid: string | null = null;
    if (lengthProblem(name, CURATION_TEXT_LIMITS.curatedAddon) || !name)
      p.add('addon', fieldMessages.pkOrSlugDoesNotExist(name.slice(0, 255)));
    else {
      const found = await this.catalogue.find(ctx, name);
      if (!found || found.status === AddonStatus.DELETED || !found.guid) {
        p.add('addon', fieldMessages.pkOrSlugDoesNotExist(name));
      } else [addonId, guid] = [found.id, found.guid];
    }
    p.throwIfAny();
    const existing = await ctx.em.findOne(AddonBrowserMapping, { browser: input.browser, extensionId });
    if (existing) {
      const before = KIND.facts(existing);
      ctx.em.assign(existing, { addon: addonId! });
      await this.log.update(ctx, KIND, existing, before);
    } else {
      const row = ctx.em.create(AddonBrowserMapping, { browser: input.browser, extensionId, addon: addonId! });
      await this.log.create(ctx, KIND, row);
    }
    return { browser: input.browser, extensionId, addonGuid: guid! };
  }

  /** Removes the mapping of an extension of `browser` (404 when there is none). */
  async remove(ctx: RequestContext, browser: Browser, extensionId: string): Promise<boolean> {
    if (lengthProblem(extensionId, DISCOVERY_TEXT_LIMITS.browserExtensionId)) throw errors.notFound();
    const row = await ctx.em.findOne(AddonBrowserMapping, { browser, extensionId: extensionId.trim() });
    if (!row) throw errors.notFound();
    await this.log.delete(ctx, KIND, row);
    return true;
  }
}

/** Pages of 100 by default and at most (a bad size is the default), as the original's. */
function mappingsPage(page: number | null | undefined, pageSize: number | null | undefined): PageRequest {
  const size =
    pageSize && pageSize > 0 ? Math.min(Math.trunc(pageSize), BROWSER_MAPPINGS_PAGE_SIZE) : BROWSER_MAPPINGS_PAGE_SIZE;
  const number = page ?? 1;
  if (!Number.isInteger(number) || number < 1) throw errors.invalidPage();
  return { page: number, pageSize: size, offset: (number - 1) * size, limit: size };
}
