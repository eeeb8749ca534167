import { errors } from './errors.js';

/**
 * Caps the uploads one account streams into this process at once (REST and GraphQL multipart
 * alike); one more is a 429 with `Retry-After`. Slots are taken after authentication, before the
 * body is read, and given back when the response is done.
 */
export class UploadSlots {
  private readonly active = new Map<number, number>();

  constructor(private readonly perUser: number) {}

  /** Takes a slot or throws THROTTLED; the returned function gives it back (once). */
  acquire(userId: number): () => void {
    const taken = this.active.get(userId) ?? 0;
    if (taken >= this.perUser) throw errors.throttled(UPLOAD_RETRY_SECONDS);
    this.active.set(userId, taken + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.active.get(userId) ?? 1) - 1;
      if (left > 0) this.active.set(userId, left);
      else this.active.delete(userId);
    };
  }

  inUse(userId: number): number {
    return this.active.get(userId) ?? 0;
  }
}

const UPLOAD_RETRY_SECONDS = 5;
