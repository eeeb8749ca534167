/**
 * The accounts' older rules some REST clients still rely on (see LegacyRules in
 * src/core/context.ts): switched on per request by the REST compatibility engine only.
 */
declare module '../core/context.js' {
  interface LegacyRules {
    /** Account edits may change the username (today it is read-only). */
    readonly usernameEditable?: boolean;
    /**
     * Deleting an account clears its details and keeps its ratings, and is refused to add-on
     * developers (today the account and its data are removed, and its sole add-ons deleted).
     */
    readonly deletionAnonymises?: boolean;
    /** Notification types include `dev_thanks`, and `announcements` is on by default. */
    readonly retiredNotificationTypes?: boolean;
  }
}

export {};
