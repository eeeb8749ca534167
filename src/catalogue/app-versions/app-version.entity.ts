import { BigIntType, Entity, PrimaryKey, Property, Unique, type Opt } from '@mikro-orm/core';

/**
 * A browser version add-ons may name in their compatibility range (the original's `AppVersion`):
 * release automation registers each new one (`registerAppVersion`), and the catalogue lists them per
 * application (`GET /api/v5/applications/<app>/`, "the valid Gecko versions").
 */
@Entity({ tableName: 'app_versions' })
@Unique({ properties: ['application', 'version'] })
export class AppVersion {
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @Property({ type: 'smallint' })
  application!: number;

  @Property({ type: 'string', length: 255 })
  version!: string;

  /** `versionInt(version)`: the order versions are listed and compared in. */
  @Property({ type: new BigIntType('number') })
  versionInt!: number;

  @Property({ type: 'timestamptz', defaultRaw: 'now()' })
  created: Opt<Date> = new Date();
}
