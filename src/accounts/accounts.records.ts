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
