import { BigIntType, Entity, PrimaryKey, Property } from '@mikro-orm/core';

/**
 * A version per cache tag (`a:<addon id>`, `u:<user id>`, `l:<listing>`, `global`), bumped by
 * triggers in the transaction of any write that changes what the tag covers (see the CacheTags
 * migration). Cached answers remember the versions of the tags they depend on (ResponseCache).
 */
@Entity({ tableName: 'cache_tags' })
export class CacheTag {
  @PrimaryKey({ type: 'string', length: 64 })
  tag!: string;

  @Property({ type: new BigIntType('string') })
  version!: string;
}
