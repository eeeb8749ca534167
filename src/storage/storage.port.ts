/**
 * Where media and add-on files live. The default keeps them under DATA_DIR; an object-store
 * adapter implements the same four calls. Keys are relative paths like `previews/full/12/12345.png`.
 */
export interface Storage {
  put(key: string, data: Buffer): Promise<void>;
  get(key: string): Promise<Buffer | null>;
  delete(key: string): Promise<void>;
  /** The public URL of a key, under the service's base URL. */
  url(baseUrl: string, key: string): string;
}

export function assertSafeKey(key: string): void {
  if (!/^[a-z0-9_-]+(\/[A-Za-z0-9_.-]+)*$/.test(key) || key.split('/').some((part) => part === '..' || part === '.')) {
    throw new Error(`Unsafe storage key: ${key}`);
  }
}
