import type { EntityManager } from '@mikro-orm/postgresql';
import { User } from '../../src/accounts/user.entity.js';
import { Addon, AddonUser } from '../../src/catalogue/addon.entity.js';
import { refreshAddons } from '../../src/catalogue/catalogue.indexer.js';
import {
  AddonStatus,
  AddonType,
  App,
  Channel,
  FileStatus,
  Platform,
  versionInt,
} from '../../src/catalogue/catalogue.enums.js';
import { License } from '../../src/catalogue/license.entity.js';
import { FeaturedAddon, Preview } from '../../src/catalogue/preview.entity.js';
import { AddonFile, Version, VersionCompat } from '../../src/catalogue/version.entity.js';

export interface VersionSpec {
  version?: string;
  channel?: Channel;
  fileStatus?: FileStatus;
  deleted?: boolean;
  compat?: Partial<Record<App, [string, string]>>;
  platform?: Platform;
  strict?: boolean;
  releaseNotes?: Record<string, string>;
  licenseBuiltin?: number | null;
  permissions?: string[];
  hostPermissions?: string[];
  dataCollectionPermissions?: string[];
  optionalDataCollectionPermissions?: string[];
}

export interface AddonSpec extends Partial<Omit<Addon, 'authors' | 'currentVersion'>> {
  authors?: { id: number; listed?: boolean }[];
  versions?: VersionSpec[];
  previews?: number;
  featured?: { app: App; locale?: string }[];
}

let counter = 0;

/** Creates an add-on with versions, files, compatibility, authors and previews, then refreshes its row. */
export async function createAddon(em: EntityManager, spec: AddonSpec = {}): Promise<Addon> {
  const n = ++counter;
  const { authors = [], versions = [{}], previews = 0, featured = [], ...fields } = spec;
  const addon = em.create(Addon, {
    slug: `addon-${n}-${process.pid}`,
    guid: `addon-${n}-${process.pid}@example.com`,
    type: AddonType.EXTENSION,
    status: AddonStatus.PUBLIC,
    name: { 'en-US': `Add-on ${n}` },
    summary: { 'en-US': `Summary of add-on ${n}` },
    ...fields,
  } as never);
  await em.flush();
  for (const [position, author] of authors.entries()) {
    em.create(AddonUser, { addon, user: em.getReference(User, author.id), listed: author.listed ?? true, position });
  }
  for (const [i, v] of versions.entries()) {
    const license = v.licenseBuiltin === null ? null : await em.findOne(License, { builtin: v.licenseBuiltin ?? 1 });
    const version = em.create(Version, {
      addon,
      version: v.version ?? `1.${i}.0`,
      channel: v.channel ?? Channel.LISTED,
      deleted: v.deleted ?? false,
      license,
      releaseNotes: v.releaseNotes ?? null,
      created: new Date(Date.UTC(2020, 0, 1 + i)),
      reviewed:
        (v.fileStatus ?? FileStatus.APPROVED) === FileStatus.APPROVED ? new Date(Date.UTC(2020, 0, 2 + i)) : null,
    });
    for (const [app, [min, max]] of Object.entries(v.compat ?? { [App.BROWSER]: ['57.0', '*'] })) {
      em.create(VersionCompat, {
        version,
        application: Number(app),
        min,
        max,
        minInt: versionInt(min)!,
        maxInt: versionInt(max)!,
      });
    }
    em.create(AddonFile, {
      version,
      filename: `${addon.slug}-${version.version}.xpi`,
      status: v.fileStatus ?? FileStatus.APPROVED,
      platform: v.platform ?? Platform.ALL,
      hash: `sha256:${'ab'.repeat(32)}`,
      size: 1234,
      strictCompatibility: v.strict ?? false,
      permissions: v.permissions ?? ['storage'],
      hostPermissions: v.hostPermissions ?? [],
      dataCollectionPermissions: v.dataCollectionPermissions ?? [],
      optionalDataCollectionPermissions: v.optionalDataCollectionPermissions ?? [],
    });
  }
  for (let i = 0; i < previews; i++) {
    em.create(Preview, {
      addon,
      position: i,
      caption: { 'en-US': `Shot ${i}` },
      imageSize: [1280, 800],
      thumbnailSize: [640, 400],
    });
  }
  for (const f of featured) em.create(FeaturedAddon, { addon, application: f.app, locale: f.locale ?? null });
  await em.flush();
  await refreshAddons(em, [addon.id]);
  await em.refresh(addon);
  return addon;
}

/** The first Firefox extension category (a listed submission needs one). */
export async function firstExtensionCategoryId(em: EntityManager): Promise<number> {
  const [category] = await em
    .getConnection()
    .execute<{ id: number }[]>('select id from categories where application = 1 and type = 1 order by id limit 1');
  return category.id;
}
