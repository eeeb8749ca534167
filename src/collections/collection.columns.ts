import type { Translations } from '../core/i18n/translations.js';
import { column, nullable, pg, table } from '../db/columns.js';

/**
 * The columns plain-row reads of collections and their items select (`CollectionRecord`,
 * `CollectionAddonRecord`, keyed as their fields), each once. The entities
 * (`collection.entity.ts`) stay the tables' definitions for migrations.
 */
export const COLLECTION_TABLE = table('collections', {
  id: column('id', pg.int),
  uuid: column('uuid', pg.text),
  author: column('author_id', pg.ref),
  slug: column('slug', pg.text),
  name: column('name', nullable(pg.jsonb<Translations>())),
  description: column('description', nullable(pg.jsonb<Translations>())),
  defaultLocale: column('default_locale', pg.text),
  listed: column('listed', pg.boolean),
  created: column('created', pg.timestamptz),
  modified: column('modified', pg.timestamptz),
});

export const COLLECTION_ITEM_TABLE = table('collection_addons', {
  id: column('id', pg.int),
  collection: column('collection_id', pg.ref),
  addon: column('addon_id', pg.ref),
  notes: column('notes', nullable(pg.jsonb<Translations>())),
  created: column('created', pg.timestamptz),
});
