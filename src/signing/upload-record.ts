import { randomUUID } from 'node:crypto';
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { User } from '../accounts/user.entity.js';
import { Addon, AddonUser } from '../catalogue/addon.entity.js';
import type { Channel } from '../catalogue/catalogue.enums.js';
import type { AddonLifecycle } from '../catalogue/lifecycle/lifecycle.service.js';
import { slugify } from '../catalogue/slug.js';
import { canonicalLocale } from '../core/i18n/locales.js';
import { executeSql } from '../db/sql.js';
import type { JobQueue } from '../jobs/queue.port.js';
import type { ServiceJobs } from '../jobs/service-jobs.js';
import type { Storage } from '../storage/storage.port.js';
import type { ParsedPackage } from './package/parse.js';
import { FileUpload } from './upload.entity.js';

/** A file the HTTP layer received and spooled to a temporary path (removed after the call). */
export interface ReceivedFile {
  path: string;
  filename: string;
  size: number;
}

/** An accepted upload, as `recordUpload` stores it. */
export interface UploadRecord {
  addon: Addon | null;
  user: User;
  pkg: ParsedPackage;
  guid: string;
  version: string;
  channel: Channel;
  automatedSigning: boolean;
  file: ReceivedFile;
  /** v5: no add-on until the upload is submitted. */
  detached?: boolean;
}

/**
 * Stores an accepted upload's file, then records it (and a first upload's add-on) and queues its
 * `validate-upload` job in one transaction; the stored file is removed if that fails.
 */
export async function recordUpload(
  em: EntityManager,
  deps: { files: Storage; jobs: JobQueue<ServiceJobs>; lifecycle: AddonLifecycle },
  args: UploadRecord,
): Promise<{ upload: FileUpload; created: boolean }> {
  const uuid = randomUUID().replaceAll('-', '');
  const storageKey = `uploads/${uuid.slice(0, 2)}/${uuid}.xpi`;
  const hash = `sha256:${await sha256File(args.file.path)}`;
  await deps.files.putFile(storageKey, args.file.path);
  try {
    return await em.transactional(async (tx) => {
      const detached = args.detached === true;
      const created = !args.addon && !detached;
      const addon = args.addon
        ? tx.merge(args.addon)
        : detached
          ? null
          : await createAddonFromPackage(tx, args.pkg, args.guid, args.user);
      const upload = tx.create(FileUpload, {
        uuid,
        user: args.user,
        addon,
        version: args.version,
        channel: args.channel,
        addonType: args.pkg.type,
        automatedSigning: args.automatedSigning,
        filename: args.file.filename.slice(0, 255) || 'upload.xpi',
        storageKey,
        size: args.file.size,
        hash,
      });
      await tx.flush();
      if (addon) {
        await deps.lifecycle.submitted(tx, {
          addon,
          created,
          uploadId: uuid,
          version: args.version,
          channel: args.channel,
          actorId: args.user.id,
        });
      }
      await deps.jobs.send('validate-upload', { uploadId: uuid }, { transaction: tx });
      return { upload, created };
    });
  } catch (error) {
    await deps.files.delete(storageKey);
    throw error;
  }
}

/** A new add-on (status incomplete until a listed version waits for review); its texts come from the manifest. */
export async function createAddonFromPackage(
  em: EntityManager,
  pkg: ParsedPackage,
  guid: string,
  user: User,
): Promise<Addon> {
  const locale = (pkg.defaultLocale && canonicalLocale(pkg.defaultLocale.replace('_', '-'))) || 'en-US';
  const name = (pkg.name ?? '').trim().slice(0, 255) || guid;
  const addon = Object.assign(new Addon(), {
    guid,
    slug: await uniqueSlug(em, name),
    type: pkg.type,
    defaultLocale: locale,
    name: { [locale]: name },
    summary: pkg.description?.trim() ? { [locale]: pkg.description.trim().slice(0, 250) } : null,
  });
  em.persist(addon);
  em.create(AddonUser, { addon, user, listed: true, position: 0 });
  await em.flush();
  return addon;
}

async function sha256File(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** A slug from the name (letters, digits, dashes), made unique with a number; call it in a transaction. */
export async function uniqueSlug(em: EntityManager, name: string): Promise<string> {
  const base = slugify(name.normalize('NFKD'), 30);
  const candidate = /^\d+$/.test(base) ? `addon-${base}` : base;
  // Concurrent creations of the same name wait for each other (until commit) instead of racing to
  // the unique index: called inside the creating transaction.
  await executeSql(em, 'select pg_advisory_xact_lock(hashtext(?))', [`addon-slug:${candidate}`]);
  const rows = await executeSql<{ slug: string }[]>(em, 'select slug from addons where slug = ? or slug like ?', [
    candidate,
    `${candidate}-%`,
  ]);
  const taken = new Set(rows.map((r) => r.slug));
  if (!taken.has(candidate)) return candidate;
  for (let i = 2; ; i++) if (!taken.has(`${candidate}-${i}`)) return `${candidate}-${i}`;
}
