import { z } from 'zod';
import { type SettingsSlice, type SettingValues, urlWithProtocol } from '../core/settings.js';

/** Search's settings: the engine and its limits; composed with the others by src/config.ts. */
const shape = {
  SEARCH_ENGINE: z.enum(['postgres', 'meilisearch']).default('postgres'),
  /** Only this many search results are reachable by paging (the original's max_result_window). */
  SEARCH_MAX_RESULT_WINDOW: z.coerce.number().int().min(50).max(1_000_000).default(25_000),
  MEILI_URL: urlWithProtocol(['http:', 'https:']).optional(),
  MEILI_MASTER_KEY: z.string().min(1).optional(),
  MEILI_INDEX: z
    .string()
    .regex(/^[A-Za-z0-9_-]+$/, 'must be letters, digits, _ or -')
    .default('addons'),
};

declare module '../core/settings.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface Settings extends SettingValues<typeof shape> {}
}

export const searchSettings: SettingsSlice<typeof shape> = {
  owner: 'search',
  shape,
  checks: [
    {
      key: 'MEILI_URL',
      message: 'is required when SEARCH_ENGINE=meilisearch',
      holds: (c) => c.SEARCH_ENGINE !== 'meilisearch' || Boolean(c.MEILI_URL),
    },
  ],
};
