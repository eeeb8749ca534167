import { Entity, PrimaryKey, Property, type Opt } from '@mikro-orm/core';

/**
 * A suggested replacement for an add-on id that is no longer supported (the original's replacement
 * add-ons): `path` is a catalogue path, `/addon/<slug or id>/` or `/collections/<user>/<slug>/`,
 * or an absolute URL elsewhere.
 */
@Entity({ tableName: 'replacement_addons' })
export class ReplacementAddon {
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @Property({ type: 'string', length: 255, unique: true })
  guid!: string;

  @Property({ type: 'string', length: 255 })
  path!: string;

  @Property({ type: 'timestamptz', defaultRaw: 'now()' })
  created: Opt<Date> = new Date();

  @Property({ type: 'timestamptz', defaultRaw: 'now()', onUpdate: () => new Date() })
  modified: Opt<Date> = new Date();
}
