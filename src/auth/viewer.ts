import type { User } from '../accounts/user.entity.js';
import { hasPermission } from '../accounts/permissions.js';
import type { Permission } from './permissions.js';

export type AuthMethod = 'jwt' | 'session';

/** Who is making a request. Built once per request by the authenticator; read by every service. */
export class Viewer {
  static readonly anonymous = new Viewer(null, [], null);

  constructor(
    readonly user: User | null,
    /** Sorted union of the user's group rules. */
    readonly permissions: readonly string[],
    readonly method: AuthMethod | null,
    readonly sessionId: string | null = null,
    /**
     * Known to author no add-on (read with the session; false when not read): such a viewer
     * without permissions sees public catalogue answers as an anonymous caller does.
     */
    readonly authorsNoAddon = false,
  ) {}

  get isAuthenticated(): boolean {
    return this.user !== null;
  }

  get userId(): number | null {
    return this.user?.id ?? null;
  }

  can(permission: Permission): boolean {
    return hasPermission(this.permissions, permission);
  }

  is(userId: number): boolean {
    return this.user?.id === userId;
  }
}
