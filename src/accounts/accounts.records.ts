import type { Platform as DbPlatform } from '@mikro-orm/core';
import { toDate, type DbTimestamp } from '../db/rows.js';
import type { User } from './user.entity.js';

/** The public fields of an account (the `User` GraphQL type's own fields), as read-only records carry them. */
export interface UserRecord {
  readonly id: number;
  readonly username: string;
  readonly displayName: string | null;
  readonly biography: string | null;
  readonly homepage: string | null;
  readonly location: string | null;
  readonly occupation: string | null;
  readonly created: Date;
}

/** What only the user themself (or Users:Edit) reads; not part of the records, loaded when asked for. */
export interface UserPrivateFields {
  readonly email: string;
  readonly deleted: boolean;
  readonly lastLogin: Date | null;
  readonly lastLoginIp: string | null;
  readonly readDevAgreement: Date | null;
}

/** Fails to compile when the entity stops satisfying the records (resolvers get both). */
type Satisfies<E extends R, R> = E;
export type UserSatisfiesRecords = [Satisfies<User, UserRecord>, Satisfies<User, UserPrivateFields>];

/** The public user columns, from `users u` joined to another table: `user_id` … `user_created`. */
export const JOINED_USER_COLUMNS = `u.id as user_id, u.username, u.display_name, u.biography, u.homepage,
  u.location, u.occupation, u.created as user_created`;

export interface JoinedUserRow {
  user_id: number;
  username: string;
  display_name: string | null;
  biography: string | null;
  homepage: string | null;
  location: string | null;
  occupation: string | null;
  user_created: DbTimestamp;
}

export function toJoinedUserRecord(row: JoinedUserRow, db: DbPlatform): UserRecord {
  return {
    id: row.user_id,
    username: row.username,
    displayName: row.display_name,
    biography: row.biography,
    homepage: row.homepage,
    location: row.location,
    occupation: row.occupation,
    created: toDate(db, row.user_created),
  };
}
