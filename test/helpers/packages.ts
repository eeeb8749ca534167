import { createHash, randomUUID } from 'node:crypto';
import { User } from '../../src/accounts/user.entity.js';
import { AddonType } from '../../src/catalogue/catalogue.enums.js';
import { AddonFile, type Version } from '../../src/catalogue/version.entity.js';
import { FileUpload } from '../../src/signing/upload.entity.js';
import type { TestApp } from './app.js';
import { zipFiles } from './signing.js';

/** What the upload's validation reports: linter messages, and minified files it could not identify. */
export interface PackageValidation {
  messages?: object[];
  minified?: string[];
}

/**
 * Stores a package for the version's file, as the signing pipeline leaves it (the file's bytes,
 * hash and size, and the validated upload that made the version), so reviewers can browse it.
 * Returns the file's id and the package's SHA-256 (hex).
 */
export async function attachPackage(
  t: TestApp,
  version: Version,
  files: Record<string, string | Buffer>,
  { messages = [], minified = [] }: PackageValidation = {},
): Promise<{ fileId: number; sha256: string }> {
  const bytes = await zipFiles(files);
  const hash = `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
  const em = t.em();
  const file = await em.findOneOrFail(AddonFile, { version: version.id });
  const key = `addons/${version.addon.id}/${file.id}-${randomUUID()}.xpi`;
  await t.app.services.files.put(key, bytes);
  file.storageKey = key;
  file.hash = hash;
  file.size = bytes.length;
  const uploader = await em.findOneOrFail(User, { id: { $gt: 0 } });
  em.create(FileUpload, {
    uuid: randomUUID().replace(/-/g, ''),
    user: uploader,
    addon: version.addon.id,
    version: version.version,
    channel: version.channel,
    addonType: AddonType.EXTENSION,
    automatedSigning: false,
    filename: 'upload.xpi',
    storageKey: key,
    hash,
    valid: true,
    processedAt: new Date(),
    createdVersion: version.id,
    validation: {
      success: true,
      errors: 0,
      warnings: messages.length,
      notices: 0,
      compatibility_summary: { errors: 0, warnings: messages.length, notices: 0 },
      detected_type: 'extension',
      ending_tier: 5,
      metadata: { listed: true, is_webextension: true, unknownMinifiedFiles: minified },
      messages,
      message_tree: {},
    },
  } as never);
  await em.flush();
  return { fileId: file.id, sha256: hash.slice('sha256:'.length) };
}
