import { Entity, PrimaryKey, Property, type Opt } from '@mikro-orm/core';

/**
 * A tag an add-on may carry (the original's tag model): the one list the listing edit accepts,
 * `GET /addons/tags/` shows and search's `tag` filter names. Add-ons keep their tags' texts in
 * `addons.tags` (denormalised, for the search filters and document).
 */
@Entity({ tableName: 'tags' })
export class Tag {
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @Property({ type: 'string', length: 128, unique: true })
  tagText!: string;

  @Property({ type: 'timestamptz', defaultRaw: 'now()' })
  created: Opt<Date> = new Date();
}
