import type { User } from '../accounts/user.entity.js';
import { hasPermission, type Permission } from '../access/permissions.js';

export type AuthMethod = 'jwt' | 'session';

/**
 * The API key a JWT caller signed with, and what limits it (src/access/key-scopes.ts): `addonIds`
 * null: every add-on of the user (and new ones); `operations` null: every operation family.
 */
export interface ViewerKey {
  readonly id: number;
  readonly addonIds: readonly number[] | null;
  readonly operations: readonly string[] | null;
}

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
    /** The API key of a JWT caller (null for sessions). */
    readonly key: ViewerKey | null = null,
    /**
     * A session whose sign-in proved no second factor while the service requires one
     * (`SIGNIN_REQUIRE_SECOND_FACTOR`) for what developers publish with (`SECOND_FACTOR` operations).
     */
    readonly secondFactorMissing = false,
  ) {}

  /**
   * Whether the caller's credentials reach this add-on: always, except for an API key limited to
   * other add-ons (then the caller is treated as a stranger to it: `authorRole` in
   * src/catalogue/addon-access.ts).
   */
  keyReachesAddon(addonId: number): boolean {
    const addonIds = this.key?.addonIds;
    return !addonIds || addonIds.includes(addonId);
  }

  /** An API key limited to some add-ons: it may not create new ones. */
  get keyLimitsAddons(): boolean {
    return !!this.key?.addonIds;
  }

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

/** The viewer the request context carries (src/core/context.ts) is this one. */
declare module '../core/context.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface RequestViewer extends Viewer {}
}
