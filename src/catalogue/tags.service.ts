import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../core/context.js';
import { selectRows } from '../db/rows.js';
import { textArray } from '../db/sql.js';

/**
 * The tag list (`tags`, the original's tag model): the only tags a listing edit accepts, listed by
 * `addonTags` (`GET /addons/tags/`); search's `tag` filter and documents read the add-ons' copies.
 */
export class TagsService {
  /** Every tag's text, alphabetically (the original's order). */
  async list(ctx: RequestContext): Promise<string[]> {
    const rows = await selectRows<{ tag_text: string }>(ctx.em, 'select tag_text from tags order by tag_text');
    return rows.map((row) => row.tag_text);
  }
}

/** Those of `tags` that are not in the list, in the order given. */
export async function unknownTags(em: EntityManager, tags: readonly string[]): Promise<string[]> {
  if (!tags.length) return [];
  const rows = await selectRows<{ tag_text: string }>(em, 'select tag_text from tags where tag_text = any(?::text[])', [
    textArray(tags),
  ]);
  const known = new Set(rows.map((row) => row.tag_text));
  return tags.filter((tag) => !known.has(tag));
}
