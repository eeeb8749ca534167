import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Keyring } from './secrets.js';

describe('Keyring', () => {
  it('generates a private key file once and reuses it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'keyring-'));
    try {
      const first = Keyring.load(undefined, dir);
      expect(first.generated).toBe(true);
      expect(statSync(join(dir, 'secret-key')).mode & 0o777).toBe(0o600);
      const second = Keyring.load(undefined, dir);
      expect(second.generated).toBe(false);
      const sealed = first.keyring.box('x').seal('secret', 'ctx');
      expect(second.keyring.box('x').open(sealed, 'ctx')).toBe('secret');
      expect(readFileSync(join(dir, 'secret-key'), 'utf8').trim()).toMatch(/^[0-9a-f]{64}$/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('seals with AES-GCM bound to purpose and context', () => {
    const keyring = new Keyring('k'.repeat(40));
    const box = keyring.box('api-key-secrets');
    const sealed = box.seal('hunter2', 'user:1:2');
    expect(sealed).not.toContain('hunter2');
    expect(box.open(sealed, 'user:1:2')).toBe('hunter2');
    expect(box.open(sealed, 'user:1:3')).toBeNull();
    expect(keyring.box('other').open(sealed, 'user:1:2')).toBeNull();
    expect(new Keyring('z'.repeat(40)).box('api-key-secrets').open(sealed, 'user:1:2')).toBeNull();
    expect(box.open(sealed.slice(0, -2) + 'AA', 'user:1:2')).toBeNull();
    expect(box.open('garbage', 'user:1:2')).toBeNull();
  });

  it('refuses a tag shorter than 16 bytes, even a true prefix of the right one', () => {
    const box = new Keyring('k'.repeat(40)).box('api-key-secrets');
    const [version, iv, tag, ciphertext] = box.seal('hunter2', 'user:1:2').split('.');
    const full = Buffer.from(tag, 'base64url');
    expect(full).toHaveLength(16);
    for (const bytes of [4, 8, 12, 15]) {
      const short = [version, iv, full.subarray(0, bytes).toString('base64url'), ciphertext].join('.');
      expect([bytes, box.open(short, 'user:1:2')]).toEqual([bytes, null]);
    }
    const long = [version, iv, Buffer.concat([full, Buffer.from([0])]).toString('base64url'), ciphertext].join('.');
    expect(box.open(long, 'user:1:2')).toBeNull();
    expect(box.open([version, iv, tag, ciphertext].join('.'), 'user:1:2')).toBe('hunter2');
  });

  it('signs and verifies in constant time', () => {
    const signer = new Keyring('k'.repeat(40)).signer('s');
    const signature = signer.sign('value');
    expect(signer.verify('value', signature)).toBe(true);
    expect(signer.verify('value2', signature)).toBe(false);
    expect(signer.verify('value', signature.slice(1))).toBe(false);
  });
});
