import { Entity, PrimaryKey, Property, type Opt } from '@mikro-orm/core';

/** Guids that may never be uploaded again (an add-on deleted by its vendor, say). */
@Entity({ tableName: 'denied_guids' })
export class DeniedGuid {
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @Property({ type: 'string', length: 255, unique: true })
  guid!: string;

  @Property({ type: 'text', default: '' })
  comments: Opt<string> = '';

  @Property({ type: 'timestamptz', defaultRaw: 'now()' })
  created: Opt<Date> = new Date();
}
