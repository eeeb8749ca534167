import { Entity, PrimaryKey, Property, type Opt } from '@mikro-orm/core';

/** A named set of permission rules (`app:action`, `*` wildcards). Users get permissions only through groups. */
@Entity({ tableName: 'groups' })
export class Group {
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @Property({ type: 'string', length: 200, unique: true })
  name!: string;

  @Property({ type: 'text[]', default: '{}' })
  rules: Opt<string[]> = [];

  @Property({ type: 'timestamptz', defaultRaw: 'now()' })
  created: Opt<Date> = new Date();
}
