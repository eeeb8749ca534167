import { createHash } from 'node:crypto';

/**
 * The JAR signing text files, laid out as Mozilla's signer (autograph) writes them: LF line
 * endings, a blank line after the main section and after every entry section, SHA-1 and SHA-256
 * digests in base64. Firefox reads the SHA-256 lines when the PKCS#7 signature uses SHA-256.
 */

const EOL = '\n';

/** JAR specification: "No line may be longer than 72 bytes (not characters), in its UTF8-encoded form." */
const MAX_LINE_BYTES = 72;

export interface ManifestEntry {
  name: string;
  data: Buffer;
}

/** `META-INF/manifest.mf`: one section per file, in the given order. */
export function manifestFile(entries: readonly ManifestEntry[]): Buffer {
  const sections = entries.map((entry) =>
    section([
      header('Name', entry.name),
      header('Digest-Algorithms', 'SHA1 SHA256'),
      header('SHA1-Digest', digestBase64('sha1', entry.data)),
      header('SHA256-Digest', digestBase64('sha256', entry.data)),
    ]),
  );
  return Buffer.from(section([header('Manifest-Version', '1.0')]) + sections.join(''), 'utf8');
}

/** `META-INF/mozilla.sf`: digests of the whole manifest (no per-section digests, which Firefox ignores). */
export function signatureFile(manifest: Buffer): Buffer {
  return Buffer.from(
    section([
      header('Signature-Version', '1.0'),
      header('SHA1-Digest-Manifest', digestBase64('sha1', manifest)),
      header('SHA256-Digest-Manifest', digestBase64('sha256', manifest)),
    ]),
    'utf8',
  );
}

function section(lines: string[]): string {
  return lines.map((line) => line + EOL).join('') + EOL;
}

/** `Name: value`, continued on lines starting with one space once 72 bytes are reached. */
export function header(name: string, value: string): string {
  const lines: string[] = [];
  let line = '';
  let bytes = 0;
  // Iterating by code point keeps each physical line valid UTF-8.
  for (const char of `${name}: ${value}`) {
    const size = Buffer.byteLength(char, 'utf8');
    if (bytes + size > MAX_LINE_BYTES) {
      lines.push(line);
      line = ' ';
      bytes = 1;
    }
    line += char;
    bytes += size;
  }
  lines.push(line);
  return lines.join(EOL);
}

function digestBase64(algorithm: 'sha1' | 'sha256', data: Buffer): string {
  return createHash(algorithm).update(data).digest('base64');
}
