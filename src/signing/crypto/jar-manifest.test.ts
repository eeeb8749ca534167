import { header, manifestFile, signatureFile } from './jar-manifest.js';

// SHA-1 and SHA-256 of "hello", base64.
const HELLO_SHA1 = 'qvTGHdzF6KLavt4PO0gs2a6pQ00=';
const HELLO_SHA256 = 'LPJNul+wow4m6DsqxbninhsWHlwfp0JecwQzYpOLmCQ=';

describe('JAR manifest files', () => {
  it('writes manifest.mf as Mozilla does: LF, a blank line after every section', () => {
    const manifest = manifestFile([
      { name: 'a.txt', data: Buffer.from('hello') },
      { name: 'dir/b.txt', data: Buffer.from('hello') },
    ]);
    expect(manifest.toString('utf8')).toBe(
      'Manifest-Version: 1.0\n\n' +
        `Name: a.txt\nDigest-Algorithms: SHA1 SHA256\nSHA1-Digest: ${HELLO_SHA1}\nSHA256-Digest: ${HELLO_SHA256}\n\n` +
        `Name: dir/b.txt\nDigest-Algorithms: SHA1 SHA256\nSHA1-Digest: ${HELLO_SHA1}\nSHA256-Digest: ${HELLO_SHA256}\n\n`,
    );
  });

  it('writes mozilla.sf with the digests of the whole manifest', () => {
    expect(signatureFile(Buffer.from('hello')).toString('utf8')).toBe(
      `Signature-Version: 1.0\nSHA1-Digest-Manifest: ${HELLO_SHA1}\nSHA256-Digest-Manifest: ${HELLO_SHA256}\n\n`,
    );
  });

  it('writes an empty package as the main section alone', () => {
    expect(manifestFile([]).toString('utf8')).toBe('Manifest-Version: 1.0\n\n');
  });

  it('continues long headers on lines of at most 72 bytes without splitting a character', () => {
    const name = `locales/${'ü'.repeat(40)}/${'x'.repeat(50)}/😀😀😀.json`;
    const wrapped = header('Name', name);
    const lines = wrapped.split('\n');
    expect(lines.length).toBeGreaterThan(2);
    expect(lines.every((line) => Buffer.byteLength(line, 'utf8') <= 72)).toBe(true);
    expect(lines.slice(1).every((line) => line.startsWith(' ') && !line.startsWith('  '))).toBe(true);
    expect(lines.every((line) => Buffer.from(line, 'utf8').toString('utf8') === line)).toBe(true);
    expect(wrapped.replace(/\n /g, '')).toBe(`Name: ${name}`);
  });

  it('leaves a 72-byte line whole and continues a 73-byte one', () => {
    expect(header('Name', 'x'.repeat(66))).toBe(`Name: ${'x'.repeat(66)}`);
    expect(header('Name', 'x'.repeat(67))).toBe(`Name: ${'x'.repeat(66)}\n x`);
  });
});
