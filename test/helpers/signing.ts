import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash, X509Certificate } from 'node:crypto';
import yauzl from 'yauzl';
import { checkManifest, PKCS7_FILES, verifyCosePackage } from '../../src/signing/crypto/__tests__/cose-verifier.js';
import { zipFiles } from '../../src/signing/package/__tests__/zip-builder.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import { FileStatus } from '../../src/catalogue/catalogue.enums.js';
import { AddonFile } from '../../src/catalogue/version.entity.js';

export { buildZip, deflatedZeros, zipFiles } from '../../src/signing/package/__tests__/zip-builder.js';

const DATA_COLLECTION = { required: ['none'] };

export interface ExtensionSpec {
  id?: string | null;
  version?: string;
  name?: string;
  description?: string;
  manifest?: Record<string, unknown>;
  files?: Record<string, string>;
}

/** A small MV2 extension the linter accepts without errors. */
export function extension(spec: ExtensionSpec = {}): Promise<Buffer> {
  const gecko: Record<string, unknown> = { data_collection_permissions: DATA_COLLECTION };
  if (spec.id) gecko.id = spec.id;
  const manifest = {
    manifest_version: 2,
    name: spec.name ?? 'Signing Test',
    description: spec.description ?? 'An add-on made by the tests.',
    version: spec.version ?? '1.0.0',
    browser_specific_settings: { gecko },
    background: { scripts: ['background.js'] },
    ...spec.manifest,
  };
  return zipFiles({
    'manifest.json': JSON.stringify(manifest, null, 2),
    'background.js': 'browser.runtime.onInstalled.addListener(() => console.log("installed"));\n',
    'lib/util.js': 'export const answer = 42;\n',
    ...spec.files,
  });
}

/** Reads every member of a zip. */
export async function unzip(bytes: Buffer): Promise<Map<string, Buffer>> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.fromBuffer(bytes, { lazyEntries: true }, (err, z) => (err ? reject(err) : resolve(z!))),
  );
  const out = new Map<string, Buffer>();
  await new Promise<void>((resolve, reject) => {
    zip.on('entry', (entry: yauzl.Entry) => {
      zip.openReadStream(entry, (err, stream) => {
        if (err) return reject(err);
        const chunks: Buffer[] = [];
        stream!.on('data', (c: Buffer) => chunks.push(c));
        stream!.on('end', () => {
          out.set(entry.fileName, Buffer.concat(chunks));
          zip.readEntry();
        });
      });
    });
    zip.on('end', resolve);
    zip.on('error', reject);
    zip.readEntry();
  });
  return out;
}

/**
 * Checks a signed package as a verifier would: the PKCS#7 signature over mozilla.sf with openssl
 * against the CA, the manifest digest in mozilla.sf, and every file's digests in manifest.mf.
 * Returns the signing certificate's subject.
 */
export async function verifySignedPackage(bytes: Buffer, caPem: string): Promise<string> {
  const files = await unzip(bytes);
  const rsa = files.get('META-INF/mozilla.rsa');
  const sf = files.get('META-INF/mozilla.sf');
  const mf = files.get('META-INF/manifest.mf');
  if (!rsa || !sf || !mf) throw new Error('signature files missing');
  const dir = mkdtempSync(join(tmpdir(), 'verify-'));
  try {
    writeFileSync(join(dir, 'ca.pem'), caPem);
    writeFileSync(join(dir, 'mozilla.rsa'), rsa);
    writeFileSync(join(dir, 'mozilla.sf'), sf);
    execFileSync(
      'openssl',
      [
        'cms',
        '-verify',
        '-inform',
        'DER',
        '-in',
        join(dir, 'mozilla.rsa'),
        '-content',
        join(dir, 'mozilla.sf'),
        '-binary',
        '-CAfile',
        join(dir, 'ca.pem'),
        '-purpose',
        'any',
        '-out',
        '/dev/null',
      ],
      { stdio: 'pipe' },
    );
    const certs = execFileSync(
      'openssl',
      ['pkcs7', '-inform', 'DER', '-in', join(dir, 'mozilla.rsa'), '-print_certs'],
      {
        encoding: 'utf8',
      },
    );
    const b64 = (data: Buffer, alg: string) => createHash(alg).update(data).digest('base64');
    if (!sf.toString().includes(`SHA256-Digest-Manifest: ${b64(mf, 'sha256')}`)) throw new Error('manifest digest');
    const sections = mf
      .toString()
      .replace(/\r?\n /g, '')
      .split(/\r?\n\r?\n/)
      .filter((s) => s.startsWith('Name: '));
    const listed = new Set<string>();
    for (const section of sections) {
      const name = /^Name: (.+)$/m.exec(section)![1];
      const data = files.get(name);
      if (!data) throw new Error(`${name} listed but missing`);
      if (!section.includes(`SHA256-Digest: ${b64(data, 'sha256')}`)) throw new Error(`${name}: bad digest`);
      listed.add(name);
    }
    for (const name of files.keys()) {
      if (!name.startsWith('META-INF/') && !name.endsWith('/') && !listed.has(name))
        throw new Error(`${name} not signed`);
    }
    return /subject=(.*)/.exec(certs)![1];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Checks the COSE signature of a signed package as Firefox does once the PKCS#7 one holds: cose.sig
 * in the add-on format, ES256 over cose.manifest with an end-entity certificate chaining to the CA,
 * cose.manifest listing every file but the signature files; and manifest.mf listing every file but
 * its own three, the COSE files included. Returns the COSE end-entity certificate's subject
 * (`O=Addons\nOU=Production\nCN=<id>`).
 */
export async function verifyCoseSignedPackage(bytes: Buffer, caPem: string): Promise<string> {
  const files = await unzip(bytes);
  const mf = files.get('META-INF/manifest.mf');
  if (!mf) throw new Error('manifest.mf missing');
  checkManifest(mf, files, PKCS7_FILES);
  return verifyCosePackage(files, new X509Certificate(caPem)).subject;
}

export const readCaPem = (dataDir: string) => readFileSync(join(dataDir, 'signing', 'ca', 'ca.pem'), 'utf8');

export async function waitFor<T>(what: string, probe: () => Promise<T | null | undefined | false>, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** A version's file once it is signed and approved (a listed one after a reviewer's approval). */
export function signedAndApproved(em: () => EntityManager, versionId: number): Promise<AddonFile> {
  return waitFor(
    `version ${versionId} signed and approved`,
    async () => {
      const file = await em().findOne(AddonFile, { version: versionId });
      return file?.isSigned && file.status === FileStatus.APPROVED ? file : null;
    },
    90_000,
  );
}
