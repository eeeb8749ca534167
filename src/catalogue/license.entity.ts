import { Entity, PrimaryKey, Property } from '@mikro-orm/core';
import type { Translations } from '../core/i18n/translations.js';

/** The built-in licences' slugs, in the order of their numbers (1 to 9). */
const LICENSE_SLUGS = [
  'MPL-2.0',
  'GPL-2.0-or-later',
  'GPL-3.0-or-later',
  'LGPL-2.1-or-later',
  'LGPL-3.0-or-later',
  'MIT',
  'BSD-2-Clause',
  'all-rights-reserved',
  'cc-by-3.0',
];

/** A built-in licence's slug; null for custom licences (0). */
export const licenseSlug = (builtin: number): string | null => LICENSE_SLUGS[builtin - 1] ?? null;
/** The built-in licence number of a slug, or 0 for none. */
export const builtinLicenseNumber = (slug: string | null | undefined): number =>
  slug ? LICENSE_SLUGS.indexOf(slug) + 1 : 0;

/** A licence: one of the built-in ones (builtin > 0) or a developer's custom text. */
@Entity({ tableName: 'licenses' })
export class License {
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  /** 0 for custom licences; otherwise the built-in licence number. */
  @Property({ type: 'smallint', default: 0 })
  builtin: number = 0;

  @Property({ type: 'jsonb', nullable: true })
  name: Translations | null = null;

  @Property({ type: 'string', length: 255, nullable: true })
  url: string | null = null;

  @Property({ type: 'jsonb', nullable: true, lazy: true })
  text: Translations | null = null;
}
