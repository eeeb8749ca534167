import type { CollectionRecord } from './collections.records.js';

/** The collection page on the website. */
export const collectionUrl = (base: string, collection: Pick<CollectionRecord, 'author' | 'slug'>) =>
  `${base}/collections/${collection.author.id}/${encodeURIComponent(collection.slug)}/`;
