import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * Keys derived from one master secret (SECRET_KEY, or a random key generated on first start and
 * kept in DATA_DIR/secret-key with mode 0600). Each purpose gets its own HKDF-derived key.
 */
export class Keyring {
  private readonly master: Buffer;

  constructor(master: string | Buffer) {
    this.master = Buffer.isBuffer(master) ? master : Buffer.from(master, 'utf8');
  }

  /** Reads SECRET_KEY, or the data directory's key file (created when missing). */
  static load(secretKey: string | undefined, dataDir: string): { keyring: Keyring; generated: boolean } {
    if (secretKey) return { keyring: new Keyring(secretKey), generated: false };
    const path = join(dataDir, 'secret-key');
    if (existsSync(path)) return { keyring: new Keyring(readFileSync(path, 'utf8').trim()), generated: false };
    mkdirSync(dirname(path), { recursive: true });
    const key = randomBytes(32).toString('hex');
    writeFileSync(path, key + '\n', { mode: 0o600, flag: 'wx' });
    chmodSync(path, 0o600);
    return { keyring: new Keyring(key), generated: true };
  }

  derive(purpose: string): Buffer {
    return Buffer.from(hkdfSync('sha256', this.master, Buffer.alloc(0), `addons:${purpose}`, 32));
  }

  box(purpose: string): SecretBox {
    return new SecretBox(this.derive(purpose));
  }

  signer(purpose: string): Signer {
    return new Signer(this.derive(purpose));
  }
}

/** GCM's full tag: a shorter one would be accepted by Node's decipher and weakens the check. */
const TAG_BYTES = 16;

/** AES-256-GCM. `context` is bound as associated data, so a ciphertext cannot be moved to another row. */
export class SecretBox {
  constructor(private readonly key: Buffer) {}

  seal(plaintext: string, context: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [
      'v1',
      iv.toString('base64url'),
      cipher.getAuthTag().toString('base64url'),
      ciphertext.toString('base64url'),
    ].join('.');
  }

  /** The plaintext, or null if the value was not sealed by this key for this context. */
  open(sealed: string, context: string): string | null {
    const [version, iv, tag, ciphertext] = sealed.split('.');
    if (version !== 'v1' || !iv || !tag || ciphertext === undefined) return null;
    const authTag = Buffer.from(tag, 'base64url');
    if (authTag.length !== TAG_BYTES) return null;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'), {
        authTagLength: TAG_BYTES,
      });
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(authTag);
      return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
    } catch {
      return null;
    }
  }
}

/** HMAC-SHA256 signatures, compared in constant time. */
export class Signer {
  constructor(private readonly key: Buffer) {}

  sign(value: string): string {
    return createHmac('sha256', this.key).update(value).digest('base64url');
  }

  verify(value: string, signature: string): boolean {
    const expected = Buffer.from(this.sign(value));
    const given = Buffer.from(signature);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }
}
