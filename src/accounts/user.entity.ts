import { Collection, Entity, ManyToMany, PrimaryKey, Property, type Opt } from '@mikro-orm/core';
import { Group } from './group.entity.js';

@Entity({ tableName: 'users' })
export class User {
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @Property({ type: 'string', length: 255, unique: true })
  username!: string;

  /** Stored lower-cased; unique. */
  @Property({ type: 'string', length: 255, unique: true })
  email!: string;

  @Property({ type: 'string', length: 50, nullable: true })
  displayName: string | null = null;

  @Property({ type: 'text', nullable: true })
  biography: string | null = null;

  @Property({ type: 'string', length: 255, nullable: true })
  homepage: string | null = null;

  @Property({ type: 'string', length: 255, nullable: true })
  location: string | null = null;

  @Property({ type: 'string', length: 255, nullable: true })
  occupation: string | null = null;

  /** Account-provider id; null until the account is migrated to the provider. */
  @Property({ type: 'string', length: 255, nullable: true })
  idpId: string | null = null;

  /** `image/png` or `image/jpeg` while the user has a picture (stored under `userpics/`). */
  @Property({ type: 'string', length: 25, nullable: true })
  pictureType: string | null = null;

  /** Changes with each picture (cache-busting `?modified=` value). */
  @Property({ type: 'string', length: 8, nullable: true })
  pictureHash: string | null = null;

  @Property({ type: 'boolean', default: false })
  deleted: Opt<boolean> = false;

  @Property({ type: 'timestamptz', nullable: true })
  readDevAgreement: Date | null = null;

  @Property({ type: 'timestamptz', nullable: true })
  lastLogin: Date | null = null;

  @Property({ type: 'string', length: 45, nullable: true })
  lastLoginIp: string | null = null;

  @Property({ type: 'timestamptz', defaultRaw: 'now()' })
  created: Opt<Date> = new Date();

  @Property({ type: 'timestamptz', defaultRaw: 'now()', onUpdate: () => new Date() })
  modified: Opt<Date> = new Date();

  @ManyToMany({ entity: () => Group, pivotTable: 'users_groups', joinColumn: 'user_id', inverseJoinColumn: 'group_id' })
  groups = new Collection<Group>(this);
}
