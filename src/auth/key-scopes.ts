/**
 * The operation families an API key can be limited to. A key with `scopeOperations = null` (every
 * default key, and every key made before scopes existed) may use every operation that accepts API
 * keys; a scoped key only those whose declared family it lists. Each operation that accepts API
 * keys declares its family beside `@Accepts` (enforced in one place with the credentials check).
 */
export const KeyOperation = {
  /** Submit versions and new add-ons, attach source code, roll back a release. */
  UPLOAD: 'upload',
  /** Read uploads, versions, their review state and notes; download the caller's files. */
  STATUS: 'status',
  /** Edit an add-on's listing: names, descriptions, categories, images. */
  LISTING: 'listing',
  /** Read and edit the key owner's own account. */
  ACCOUNT: 'account',
} as const;

export type KeyOperation = (typeof KeyOperation)[keyof typeof KeyOperation];

export const KEY_OPERATIONS: readonly KeyOperation[] = Object.values(KeyOperation);

export function isKeyOperation(value: string): value is KeyOperation {
  return (KEY_OPERATIONS as readonly string[]).includes(value);
}
