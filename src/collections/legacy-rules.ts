/**
 * The collections' older rule some REST clients still rely on (see LegacyRules in
 * src/core/context.ts): switched on per request by the REST compatibility engine only.
 */
declare module '../core/context.js' {
  interface LegacyRules {
    /**
     * Holders of `Collections:Edit` see and manage any user's collections (except creating one), and
     * the vendor account's curators and contributors have no rights of their own.
     */
    readonly collectionEditorsActOnAny?: boolean;
  }
}

export {};
