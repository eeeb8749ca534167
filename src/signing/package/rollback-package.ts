import { buffer } from 'node:stream/consumers';
import { ZipFile } from 'yazl';
import { isSignatureFile } from '../crypto/sign-package.js';
import { parseJsonWithComments } from './manifest.js';
import { packageErrors } from './package.errors.js';
import { readZip, type ZipLimits } from '../../archive/zip.js';

const MANIFEST = 'manifest.json';

/**
 * A rollback's package: the members of an earlier version's package (read within `limits`), without
 * any signature files (when only the signed file is kept), and `manifest.json` with its `version`
 * set to `version`. Every other member keeps its bytes and its place in the archive. The manifest is
 * written again as plain JSON (comments, which the parser tolerates, do not survive).
 */
export async function rewritePackageVersion(path: string, version: string, limits: Partial<ZipLimits> = {}) {
  const members = await readZip(path, limits);
  const archive = new ZipFile();
  let found = false;
  for (const member of members) {
    if (isSignatureFile(member.name)) continue;
    let data = member.data;
    if (member.name === MANIFEST) {
      found = true;
      data = withVersion(data, version);
    }
    archive.addBuffer(data, member.name, { compress: true });
  }
  if (!found) throw packageErrors.noManifest();
  archive.end();
  return buffer(archive.outputStream);
}

function withVersion(data: Buffer, version: string): Buffer {
  let manifest: unknown;
  try {
    manifest = parseJsonWithComments(data);
  } catch {
    throw packageErrors.invalidManifest();
  }
  if (typeof manifest !== 'object' || manifest === null || Array.isArray(manifest)) {
    throw packageErrors.invalidManifest();
  }
  return Buffer.from(JSON.stringify({ ...manifest, version }, null, 2));
}
