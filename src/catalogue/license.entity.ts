import { Entity, PrimaryKey, Property } from '@mikro-orm/core';
import type { Translations } from '../core/i18n/translations.js';

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
