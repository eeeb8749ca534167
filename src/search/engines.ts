import type { Settings as Config } from '../core/settings.js';
import type { Database } from '../db/database.js';
import { MeilisearchEngine } from './meilisearch.engine.js';
import { PostgresSearchEngine } from './postgres.engine.js';
import type { SearchEngine } from './search.port.js';

/** PostgreSQL full-text by default; Meilisearch when SEARCH_ENGINE=meilisearch. */
export function createSearchEngine(config: Config, db: Database): SearchEngine {
  if (config.SEARCH_ENGINE === 'meilisearch') {
    return new MeilisearchEngine(db, {
      url: config.MEILI_URL!,
      apiKey: config.MEILI_MASTER_KEY,
      indexName: config.MEILI_INDEX,
    });
  }
  return new PostgresSearchEngine(db);
}
