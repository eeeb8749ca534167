import type { EntityManager } from '@mikro-orm/postgresql';
import { Channel, FileStatus } from '../catalogue/catalogue.enums.js';
import { publicAddonSql } from '../catalogue/public.js';
import { canonicalLocale, DEFAULT_LOCALE } from '../core/i18n/locales.js';
import type { Translations } from '../core/i18n/translations.js';
import { lengthProblem } from '../core/text-limits.js';
import { selectRows } from '../db/rows.js';
import { escapeHtml } from '../core/html.js';

/**
 * A version's release notes as Firefox shows them beside an available update (the update entry's
 * `update_info_url`; the original's `addons.versions.update_info` page): a small XHTML document
 * with the notes in the caller's locale (the path's, which Firefox fills in), else the add-on's
 * default locale. Only for a listed, approved version of a public add-on, named by its slug, id or
 * guid and its version string; anything else is not found.
 */

/** Slugs, guids and version strings are `varchar(255)`: longer is not found (checked before any use). */
const MAX_KEY_LENGTH = 255;

const RTL_LANGUAGES = new Set(['ar', 'fa', 'he', 'ur']);

interface NotesRow {
  release_notes: Translations | null;
  default_locale: string;
}

/** The notes' page, or null when there is no such public version (or it has no notes). */
export async function updateInfoPage(
  em: EntityManager,
  addon: string,
  version: string,
  requestedLocale: string,
): Promise<string | null> {
  if (lengthProblem(addon, MAX_KEY_LENGTH) || lengthProblem(version, MAX_KEY_LENGTH)) return null;
  const byId = /^\d{1,10}$/.test(addon) && Number(addon) <= 2_147_483_647;
  const [row] = await selectRows<NotesRow>(
    em,
    `select v.release_notes, a.default_locale
       from addons a join versions v on v.addon_id = a.id
      where ${byId ? 'a.id = ?::int' : '(a.slug = ?::text or lower(a.guid) = lower(?::text))'}
        and ${publicAddonSql('a')}
        and v.version = ?::text and v.channel = ${Channel.LISTED} and not v.deleted
        and exists (select 1 from files f where f.version_id = v.id and f.status = ${FileStatus.APPROVED})
      order by v.id desc
      limit 1`,
    byId ? [Number(addon), version] : [addon, addon, version],
  );
  if (!row) return null;
  const notes = Object.fromEntries(Object.entries(row.release_notes ?? {}).filter(([, text]) => text?.trim()));
  const locale = [canonicalLocale(requestedLocale), row.default_locale, DEFAULT_LOCALE, ...Object.keys(notes)].find(
    (l): l is string => !!l && l in notes,
  );
  if (!locale) return null;
  return renderNotes(notes[locale], locale);
}

function renderNotes(text: string, locale: string): string {
  const dir = RTL_LANGUAGES.has(locale.split('-')[0]) ? 'rtl' : 'ltr';
  const body = escapeHtml(text).replace(/\r\n|\r|\n/g, '<br/>\n');
  return (
    '<!DOCTYPE html>\n' +
    `<html lang="${escapeHtml(locale)}" dir="${dir}" xmlns="http://www.w3.org/1999/xhtml">\n` +
    '<head>\n  <meta http-equiv="Content-Type" content="application/xhtml+xml; charset=utf-8"/>\n  <title></title>\n</head>\n' +
    `<body>\n<p>${body}</p>\n</body>\n</html>\n`
  );
}
