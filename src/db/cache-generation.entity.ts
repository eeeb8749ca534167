import { BigIntType, Entity, PrimaryKey, Property } from '@mikro-orm/core';

/** One row: the catalogue generation that keys cached answers (bumped by triggers; see ResponseCache). */
@Entity({ tableName: 'cache_generation' })
export class CacheGeneration {
  @PrimaryKey({ type: 'smallint', autoincrement: false })
  id!: number;

  @Property({ type: new BigIntType('string'), default: 0 })
  generation!: string;
}
