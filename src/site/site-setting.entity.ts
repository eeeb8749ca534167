import { Entity, PrimaryKey, Property, type Opt } from '@mikro-orm/core';

/** Operator-controlled settings (maintenance mode, site notice), one row per key. */
@Entity({ tableName: 'site_settings' })
export class SiteSetting {
  @PrimaryKey({ type: 'string', length: 100 })
  key!: string;

  @Property({ type: 'jsonb' })
  value!: unknown;

  @Property({ type: 'timestamptz', defaultRaw: 'now()', onUpdate: () => new Date() })
  modified: Opt<Date> = new Date();
}
