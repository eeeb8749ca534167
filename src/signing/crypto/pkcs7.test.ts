import { createHash, X509Certificate } from 'node:crypto';
import forge from 'node-forge';
import { loadOrCreateAuthority } from './authority.js';
import { signDetached } from './pkcs7.js';
import { AddonSigner } from './signer.js';
import { OID, children } from './x509.js';
import { makeOpensslCa, openssl, tempDir } from './__tests__/helpers.js';

describe('signDetached', () => {
  const dir = tempDir('pkcs7-');
  afterAll(() => dir.cleanup());

  it('embeds the certificates byte for byte and signs DER-ordered attributes', async () => {
    const ca = await loadOrCreateAuthority({ dataDir: dir.path, commonName: '', ...makeOpensslCa(dir, 'Foreign CA') });
    const signer = AddonSigner.start(ca, { poolSize: 0 });
    const identity = await signer.issue('x@example.org');
    const content = Buffer.from('Signature-Version: 1.0\n\n');
    const der = signDetached({
      content,
      signerCertificate: identity.certificate,
      signerKey: identity.privateKey,
      chain: signer.chain,
      signingTime: new Date(Date.UTC(2031, 5, 1)),
    });
    await signer.close();

    const pem = openssl(['pkcs7', '-inform', 'DER', '-print_certs'], der).stdout;
    const embedded = pem.match(/-----BEGIN CERTIFICATE-----[^-]+-----END CERTIFICATE-----/g) ?? [];
    expect(embedded.map((cert) => new X509Certificate(cert).raw)).toEqual([identity.certificate, ca.certificateDer]);

    const attributes = signedAttributes(der);
    expect(attributes.map((attribute) => attribute.type)).toEqual([
      OID.contentType,
      OID.signingTime,
      OID.messageDigest,
    ]);
    expect(attributes[2]?.value).toEqual(createHash('sha256').update(content).digest());
  });
});

/** The signer's attributes, in encoded order, with each value's raw bytes. */
function signedAttributes(der: Buffer): { type: string; value: Buffer }[] {
  const signedData = at(children(forge.asn1.fromDer(der.toString('binary'))), 1, 0);
  const signerInfos = children(signedData).at(-1);
  if (!signerInfos) throw new Error('no signerInfos');
  const attributes = at(children(signerInfos), 0, 3);
  return children(attributes).map((attribute) => {
    const [type, values] = children(attribute);
    const value = values && children(values)[0];
    if (!type || typeof type.value !== 'string' || !value || typeof value.value !== 'string') {
      throw new Error('unexpected attribute');
    }
    return { type: forge.asn1.derToOid(type.value), value: Buffer.from(value.value, 'binary') };
  });
}

function at(nodes: forge.asn1.Asn1[], ...path: number[]): forge.asn1.Asn1 {
  let node = nodes[path[0] ?? 0];
  for (const index of path.slice(1)) node = node && children(node)[index];
  if (!node) throw new Error(`no ASN.1 node at ${path.join('.')}`);
  return node;
}
