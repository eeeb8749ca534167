import type { Platform as DbPlatform } from '@mikro-orm/core';
import type { RowRef } from '../catalogue/catalogue.records.js';
import type { Translations } from '../core/i18n/translations.js';
import { toDate, type DbTimestamp } from '../db/rows.js';
import type { Collection, CollectionAddon } from './collection.entity.js';

/**
 * Read-only records of collections, filled from plain rows. Mutations return entities, which
 * satisfy the same types, so both resolve through the same resolvers.
 */
export interface CollectionRecord {
  readonly id: number;
  readonly uuid: string;
  readonly author: RowRef;
  readonly slug: string;
  readonly name: Translations | null;
  readonly description: Translations | null;
  readonly defaultLocale: string;
  readonly listed: boolean;
  readonly created: Date;
  readonly modified: Date;
}

export interface CollectionAddonRecord {
  readonly id: number;
  readonly collection: RowRef;
  readonly addon: RowRef;
  readonly notes: Translations | null;
  readonly created: Date;
}

/** Fails to compile when an entity stops satisfying its record. */
type Satisfies<E extends R, R> = E;
export type CollectionEntitiesSatisfyRecords = [
  Satisfies<Collection, CollectionRecord>,
  Satisfies<CollectionAddon, CollectionAddonRecord>,
];

export const COLLECTION_COLUMNS =
  'c.id, c.uuid, c.author_id, c.slug, c.name, c.description, c.default_locale, c.listed, c.created, c.modified';

export interface CollectionRow {
  id: number;
  uuid: string;
  author_id: number;
  slug: string;
  name: Translations | null;
  description: Translations | null;
  default_locale: string;
  listed: boolean;
  created: DbTimestamp;
  modified: DbTimestamp;
}

export function toCollectionRecord(row: CollectionRow, db: DbPlatform): CollectionRecord {
  return {
    id: row.id,
    uuid: row.uuid,
    author: { id: row.author_id },
    slug: row.slug,
    name: row.name,
    description: row.description,
    defaultLocale: row.default_locale,
    listed: row.listed,
    created: toDate(db, row.created),
    modified: toDate(db, row.modified),
  };
}

export const ITEM_COLUMNS = 'ca.id, ca.collection_id, ca.addon_id, ca.notes, ca.created';

export interface ItemRow {
  id: number;
  collection_id: number;
  addon_id: number;
  notes: Translations | null;
  created: DbTimestamp;
}

export function toItemRecord(row: ItemRow, db: DbPlatform): CollectionAddonRecord {
  return {
    id: row.id,
    collection: { id: row.collection_id },
    addon: { id: row.addon_id },
    notes: row.notes,
    created: toDate(db, row.created),
  };
}
