// COSE signatures next to PKCS#7 (issue 14, item 3): files signed by the service carry both, each
// verifier accepts them, and changing any file breaks the signature that covers it.
import { createHash, X509Certificate } from 'node:crypto';
import { Keyring } from '../src/core/secrets.js';
import { signJwt } from '../src/auth/jwt.js';
import { AddonSigner, loadOrCreateAuthority, signPackage } from '../src/signing/crypto/index.js';
import { startTestApp, type TestApp } from './helpers/app.js';
import {
  extension,
  readCaPem,
  unzip,
  verifyCoseSignedPackage,
  verifySignedPackage,
  waitFor,
  zipFiles,
} from './helpers/signing.js';
import { verifyCosePackage } from '../src/signing/crypto/__tests__/cose-verifier.js';
import { tempDir } from '../src/signing/crypto/__tests__/helpers.js';

const GUID = 'cose-pipeline@example.com';

describe('a package signed with signPackage', () => {
  const dir = tempDir('cose-signing-');
  let caPem: string;
  let signer: AddonSigner;
  let files: Map<string, Buffer>;

  beforeAll(async () => {
    const box = new Keyring('k'.repeat(40)).box('signing-ca');
    const ca = await loadOrCreateAuthority({ dataDir: dir.path, commonName: 'COSE Test Root', box, keyBits: 2048 });
    caPem = ca.certificatePem;
    signer = AddonSigner.start(ca, { poolSize: 1 });
    const unsigned = await unzip(await extension({ id: GUID, files: { 'data/blob.bin': 'x'.repeat(5000) } }));
    const entries = [...unsigned].map(([name, data]) => ({ name, data }));
    files = await unzip(await signPackage(entries, { guid: GUID, signer }));
  });
  afterAll(async () => {
    await signer.close();
    dir.cleanup();
  });

  /** The signed files again, with `change` applied, in a new archive. */
  const repack = (change: (copy: Map<string, Buffer>) => void): Promise<Buffer> => {
    const copy = new Map([...files].map(([name, data]) => [name, Buffer.from(data)]));
    change(copy);
    return zipFiles(Object.fromEntries(copy));
  };
  const flip =
    (name: string, at = 10) =>
    (copy: Map<string, Buffer>) => {
      const data = copy.get(name)!;
      data[(at + data.length) % data.length] ^= 0x01;
    };

  it('verifies with openssl (PKCS#7) and with the COSE verifier', async () => {
    const bytes = await repack(() => {});
    expect(await verifySignedPackage(bytes, caPem)).toContain(`CN = ${GUID}`);
    expect(await verifyCoseSignedPackage(bytes, caPem)).toBe(`O=Addons\nOU=Production\nCN=${GUID}`);
  });

  /** The COSE side alone, as Firefox checks it (the PKCS#7 files ignored). */
  const verifyCoseOnly = async (bytes: Buffer) => verifyCosePackage(await unzip(bytes), new X509Certificate(caPem));

  it.each([
    ['changing a content file', flip('background.js'), /manifest: background\.js modified/],
    ['changing the last byte of a content file', flip('data/blob.bin', -1), /manifest: data\/blob\.bin modified/],
    ['changing cose.manifest', flip('META-INF/cose.manifest', 30), /signature does not verify/],
    ['changing a certificate in cose.sig', flip('META-INF/cose.sig', 200), /signature does not verify/],
    ['changing the signature in cose.sig', flip('META-INF/cose.sig', -5), /signature does not verify/],
    [
      'adding a file',
      (copy: Map<string, Buffer>) => copy.set('extra.js', Buffer.from('alert(1)')),
      /extra\.js not signed/,
    ],
    ['removing a file', (copy: Map<string, Buffer>) => copy.delete('lib/util.js'), /lib\/util\.js listed but missing/],
  ])('fails both verifications after %s', async (_what, change, coseError) => {
    const bytes = await repack(change);
    await expect(verifySignedPackage(bytes, caPem)).rejects.toThrow();
    await expect(verifyCoseOnly(bytes)).rejects.toThrow(coseError);
    await expect(verifyCoseSignedPackage(bytes, caPem)).rejects.toThrow();
  });

  it('fails the COSE verification when cose.manifest is re-listed to match a changed file', async () => {
    // Only the signature over cose.manifest stops this (the PKCS#7 side catches it through manifest.mf).
    const bytes = await repack((copy) => {
      const data = copy.get('background.js')!;
      data[0] ^= 0x01;
      const manifest = copy.get('META-INF/cose.manifest')!.toString('utf8');
      const before = createHash('sha256').update(files.get('background.js')!).digest('base64');
      const after = createHash('sha256').update(data).digest('base64');
      copy.set('META-INF/cose.manifest', Buffer.from(manifest.replace(before, after)));
    });
    await expect(verifyCoseOnly(bytes)).rejects.toThrow(/signature does not verify/);
    await expect(verifySignedPackage(bytes, caPem)).rejects.toThrow();
  });

  it.each([
    ['manifest.mf', 'META-INF/manifest.mf'],
    ['mozilla.sf', 'META-INF/mozilla.sf'],
    ['mozilla.rsa', 'META-INF/mozilla.rsa'],
  ])('fails the PKCS#7 verification after changing %s', async (_what, name) => {
    const bytes = await repack(flip(name, 60));
    await expect(verifySignedPackage(bytes, caPem)).rejects.toThrow();
  });
});

describe('files signed by the service', () => {
  let t: TestApp;
  const now = () => Math.floor(Date.now() / 1000);

  beforeAll(async () => {
    t = await startTestApp({
      env: { SIGNING_CA_KEY_BITS: '2048', SIGNING_KEY_POOL: '1', SITE_URL: 'http://addons.test' },
    });
  }, 120_000);
  afterAll(() => t?.close());

  it('carry a COSE signature that verifies next to the PKCS#7 one', async () => {
    const user = await t.createUser({ 'api-key': true });
    const key = user.apiKey!;
    const jwt = () => `JWT ${signJwt({ iss: key.key, iat: now(), exp: now() + 300 }, key.secret)}`;
    const res = await t.http
      .put(`/api/v4/addons/${encodeURIComponent(GUID)}/versions/1.0.0/`)
      .set('Authorization', jwt())
      .attach('upload', await extension({ id: GUID }), 'addon.xpi');
    expect(res.status).toBe(201);
    const statusPath = new URL(res.body.url as string).pathname;
    const done = await waitFor(
      'the upload to be signed',
      async () => {
        const status = await t.http.get(statusPath).set('Authorization', jwt());
        const body = status.body as {
          processed: boolean;
          valid: boolean;
          files: { download_url: string; signed: boolean }[];
        };
        if (body.processed && !body.valid) throw new Error('validation failed');
        return body.files[0]?.signed ? body : null;
      },
      90_000,
    );
    const got = await t.http
      .get(new URL(done.files[0]!.download_url).pathname)
      .set('Authorization', jwt())
      .buffer(true)
      .parse((r, cb) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () => cb(null, Buffer.concat(chunks)));
      });
    expect(got.status).toBe(200);
    const bytes = got.body as Buffer;
    const caPem = readCaPem(t.app.services.config.dataDir);
    expect(await verifySignedPackage(bytes, caPem)).toContain(`CN = ${GUID}`);
    expect(await verifyCoseSignedPackage(bytes, caPem)).toBe(`O=Addons\nOU=Production\nCN=${GUID}`);
    const names = [...(await unzip(bytes)).keys()];
    expect(names).toEqual(expect.arrayContaining(['META-INF/cose.manifest', 'META-INF/cose.sig']));
  }, 120_000);
});
