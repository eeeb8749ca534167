import { recordMapper, selectList, type RecordOf, type RowOf } from '../db/columns.js';
import { COLLECTION_ITEM_TABLE, COLLECTION_TABLE } from './collection.columns.js';
import type { Collection, CollectionAddon } from './collection.entity.js';

/**
 * Read-only records of collections, filled from plain rows: the column maps' read columns
 * (`collection.columns.ts`). Mutations return entities, which satisfy the same types, so both
 * resolve through the same resolvers.
 */
export type CollectionRecord = RecordOf<typeof COLLECTION_TABLE>;
export type CollectionAddonRecord = RecordOf<typeof COLLECTION_ITEM_TABLE>;

/** Fails to compile when an entity stops satisfying its record. */
type Satisfies<E extends R, R> = E;
export type CollectionEntitiesSatisfyRecords = [
  Satisfies<Collection, CollectionRecord>,
  Satisfies<CollectionAddon, CollectionAddonRecord>,
];

export const COLLECTION_COLUMNS = selectList(COLLECTION_TABLE, 'c');
export type CollectionRow = RowOf<typeof COLLECTION_TABLE>;
export const toCollectionRecord = recordMapper(COLLECTION_TABLE);

export const ITEM_COLUMNS = selectList(COLLECTION_ITEM_TABLE, 'ca');
export type ItemRow = RowOf<typeof COLLECTION_ITEM_TABLE>;
export const toItemRecord = recordMapper(COLLECTION_ITEM_TABLE);
