import { Entity, Index, PrimaryKey, Property } from '@mikro-orm/core';

/** A `jti` seen on a JWT, kept until the token it came with expires (replay protection). */
@Entity({ tableName: 'jwt_nonces' })
export class JwtNonce {
  @PrimaryKey({ type: 'string', length: 255 })
  issuer!: string;

  @PrimaryKey({ type: 'string', length: 255 })
  jti!: string;

  @Index()
  @Property({ type: 'timestamptz' })
  expiresAt!: Date;
}
