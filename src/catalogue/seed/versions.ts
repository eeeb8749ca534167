import { AddonType, App, Channel, FileStatus, Platform, versionInt } from '../catalogue.enums.js';
import type { AddonBatch, CompatRow, FileRow, IdCursor, VersionRow } from './model.js';
import { TIME_END, TIME_START } from './model.js';
import type { Rng } from './prng.js';
import type { Vocabulary } from './vocabulary.js';
import { PERMISSIONS } from './words.js';

/** How an add-on's versions look, by the add-on's situation. */
export type Plan = 'public' | 'unlisted' | 'nominated' | 'incomplete' | 'disabled' | 'deleted';

export interface VersionsInput {
  addonId: number;
  type: AddonType;
  plan: Plan;
  slug: string;
  locale: string;
  created: number;
  apps: App[];
  /** Pre-WebExtension add-on: legacy compatibility, not a WebExtension file. */
  legacy: boolean;
  androidOnly: boolean;
}

/** What the add-on row takes from its versions. */
export interface VersionsSummary {
  current: VersionRow | null;
  compat: CompatRow[];
  platforms: number[];
  /** Latest change of any version (creation or review). */
  modified: number;
}

// Minimum application versions over time (oldest first); all parse with versionInt().
// prettier-ignore
const MINS: Record<App, string[]> = {
  [App.BROWSER]: ['3.6', '4.0', '10.0', '24.0', '38.0', '45.0', '48.0', '52.0', '57.0', '60.0', '68.0', '78.0', '91.0'],
  [App.ANDROID]: ['48.0', '57.0', '68.0', '79.0', '91.0'],
  [App.MAILCLIENT]: ['3.1', '10.0', '45.0', '60.0', '68.0', '78.0', '91.0'],
  [App.SUITE]: ['2.0', '2.1', '2.49', '2.53'],
};
const LEGACY_MAXES = ['10.*', '24.*', '38.*', '45.*', '52.*', '56.*', '56.*', '56.*'];
const MODERN_MAXES = ['60.*', '68.*', '78.*', '91.*', '99.*'];
/** Built-in licence numbers by kind of add-on. */
const CODE_LICENCES = [
  [1, 30],
  [3, 20],
  [6, 25],
  [2, 8],
  [4, 4],
  [5, 3],
  [7, 5],
  [8, 5],
] as const;
const ART_LICENCES = [
  [9, 60],
  [8, 40],
] as const;

/** 1–5 versions with their compatibility and one file each, appended to `batch`. */
export function addVersions(
  rng: Rng,
  input: VersionsInput,
  ids: IdCursor,
  batch: AddonBatch,
  licences: ReadonlyMap<number, number>,
  vocabulary: Vocabulary,
): VersionsSummary {
  const { plan } = input;
  const count =
    plan === 'incomplete'
      ? 1
      : rng.weighted([
          [1, 40],
          [2, 25],
          [3, 15],
          [4, 10],
          [5, 10],
        ] as const);
  const times = versionTimes(rng, input.created, count);
  const numbers = versionNumbers(rng, count);
  const licenceNumber = licenceFor(rng, input.type);
  const versions: VersionRow[] = [];
  const files: FileRow[] = [];
  const compat: CompatRow[][] = [];
  for (let i = 0; i < count; i++) {
    const last = i === count - 1;
    // Besides unlisted-only add-ons, the latest version is listed and a few older ones are not.
    const listed = plan !== 'unlisted' && (last || rng.chance(0.95));
    const deleted = plan === 'deleted' || (plan === 'public' && !last && rng.chance(0.03));
    const status = deleted ? FileStatus.DISABLED : fileStatus(rng, plan, last);
    const version: VersionRow = {
      id: ids.versions++,
      addon_id: input.addonId,
      version: numbers[i],
      channel: listed ? Channel.LISTED : Channel.UNLISTED,
      license_id: licenceNumber === null ? null : (licences.get(licenceNumber) ?? null),
      release_notes: i > 0 && rng.chance(0.4) ? { [input.locale]: vocabulary.summary(rng, rng.int(6, 30)) } : null,
      deleted,
      created: times[i],
      reviewed: status === FileStatus.AWAITING_REVIEW ? null : reviewTime(rng, times[i]),
    };
    versions.push(version);
    files.push(fileFor(rng, input, version, status, ids.files++));
    compat.push(compatFor(rng, input, version, ids));
  }
  if (plan === 'public') ensureApproved(rng, versions, files);
  // Approved files were signed when approved (what the update service and the blocklist offer).
  for (const file of files) file.is_signed = file.status === FileStatus.APPROVED;
  // The current version: the latest approved, listed, not deleted one.
  let current = -1;
  let modified = input.created;
  for (let i = 0; i < count; i++) {
    const v = versions[i];
    if (v.channel === Channel.LISTED && !v.deleted && files[i].status === FileStatus.APPROVED) current = i;
    modified = Math.max(modified, v.reviewed ?? v.created);
  }
  batch.versions.push(...versions);
  batch.files.push(...files);
  for (const rows of compat) batch.compat.push(...rows);
  return {
    current: current < 0 ? null : versions[current],
    compat: current < 0 ? [] : compat[current],
    platforms: current < 0 ? [] : [files[current].platform],
    modified,
  };
}

const reviewTime = (rng: Rng, created: number) => created + rng.int(1, 96) * 3_600_000;

function fileStatus(rng: Rng, plan: Plan, last: boolean): FileStatus {
  switch (plan) {
    case 'public':
      if (last) return rng.chance(0.93) ? FileStatus.APPROVED : FileStatus.AWAITING_REVIEW;
      return rng.chance(0.85) ? FileStatus.APPROVED : FileStatus.DISABLED;
    case 'unlisted':
      return !last || rng.chance(0.9) ? FileStatus.APPROVED : FileStatus.AWAITING_REVIEW;
    case 'nominated':
      return last || rng.chance(0.5) ? FileStatus.AWAITING_REVIEW : FileStatus.DISABLED;
    case 'incomplete':
      return FileStatus.AWAITING_REVIEW;
    case 'disabled':
    case 'deleted':
      return FileStatus.DISABLED;
  }
}

/** A public add-on has at least one approved listed version: promote the latest listed one (or the last). */
function ensureApproved(rng: Rng, versions: VersionRow[], files: FileRow[]): void {
  const ok = versions.some(
    (v, i) => v.channel === Channel.LISTED && !v.deleted && files[i].status === FileStatus.APPROVED,
  );
  if (ok) return;
  let i = versions.length - 1;
  while (i > 0 && versions[i].channel !== Channel.LISTED) i--;
  const v = versions[i];
  v.channel = Channel.LISTED;
  v.deleted = false;
  v.reviewed ??= reviewTime(rng, v.created);
  files[i].status = FileStatus.APPROVED;
}

function versionTimes(rng: Rng, created: number, count: number): number[] {
  const times = [created];
  for (let i = 1; i < count; i++) times.push(created + Math.floor(rng.next() * (TIME_END - created)));
  return times.sort((a, b) => a - b);
}

/** Increasing version strings: 1.0, 1.0.1, 1.1, 2.0… */
function versionNumbers(rng: Rng, count: number): string[] {
  let major = rng.int(0, 3);
  let minor = major === 0 ? rng.int(1, 9) : rng.int(0, 3);
  let patch = rng.chance(0.2) ? rng.int(1, 5) : 0;
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    if (i > 0) {
      const r = rng.next();
      if (r < 0.15) [major, minor, patch] = [major + 1, 0, 0];
      else if (r < 0.6) [minor, patch] = [minor + 1, 0];
      else patch++;
    }
    out.push(patch ? `${major}.${minor}.${patch}` : `${major}.${minor}`);
  }
  return out;
}

function licenceFor(rng: Rng, type: AddonType): number | null {
  if (type === AddonType.STATICTHEME || type === AddonType.THEME || type === AddonType.PERSONA) {
    return rng.chance(0.7) ? rng.weighted(ART_LICENCES) : null;
  }
  return rng.chance(0.85) ? rng.weighted(CODE_LICENCES) : null;
}

/** A version's compatibility rows, in application order (the order of the add-on's compat_* arrays). */
function compatFor(rng: Rng, input: VersionsInput, version: VersionRow, ids: IdCursor): CompatRow[] {
  const era = (version.created - TIME_START) / (TIME_END - TIME_START);
  return [...input.apps]
    .sort((a, b) => a - b)
    .map((application) => {
      const mins = MINS[application];
      const modernFrom = application === App.BROWSER ? 5 : 0;
      let index = Math.floor(era * mins.length) - rng.int(0, 3);
      if (!input.legacy && application === App.BROWSER) index = Math.max(index, modernFrom);
      if (input.legacy) index = Math.min(index, modernFrom + 1);
      const min = mins[Math.max(0, Math.min(mins.length - 1, index))];
      const minInt = versionInt(min)!;
      const maxes = (input.legacy ? LEGACY_MAXES : rng.chance(0.1) ? MODERN_MAXES : []).filter(
        (m) => versionInt(m)! >= minInt,
      );
      const max = maxes.length ? rng.pick(maxes) : '*';
      return {
        id: ids.version_compat++,
        version_id: version.id,
        application,
        min,
        max,
        min_int: minInt,
        max_int: versionInt(max)!,
      };
    });
}

function fileFor(rng: Rng, input: VersionsInput, version: VersionRow, status: FileStatus, id: number): FileRow {
  const extension = input.type === AddonType.EXTENSION;
  let platform: Platform = Platform.ALL;
  if (extension && input.androidOnly) platform = rng.chance(0.5) ? Platform.ANDROID : Platform.ALL;
  else if (extension && rng.chance(0.03)) platform = rng.pick([Platform.LINUX, Platform.MAC, Platform.WINDOWS]);
  const art = input.type === AddonType.STATICTHEME || input.type === AddonType.PERSONA;
  const size = Math.round(Math.exp(rng.normal() * (art ? 0.8 : 1.3) + Math.log(art ? 60_000 : 150_000)));
  const webext = !input.legacy;
  const permissionCount = extension && webext ? rng.weighted(PERMISSION_COUNTS) : 0;
  return {
    id,
    version_id: version.id,
    platform,
    status,
    filename: `${input.slug}-${version.version}.xpi`,
    hash: `sha256:${rng.hex(32)}`,
    is_signed: false,
    size: Math.min(Math.max(size, 1_000), 200_000_000),
    is_webextension: webext,
    is_restart_required: !webext && rng.chance(0.4),
    is_vendor_signed: rng.chance(0.002),
    strict_compatibility: !webext && rng.chance(0.2),
    permissions: rng.sample(PERMISSIONS, permissionCount),
    optional_permissions: permissionCount && rng.chance(0.2) ? rng.sample(PERMISSIONS, rng.int(1, 2)) : [],
    host_permissions: [],
    data_collection_permissions: [],
    optional_data_collection_permissions: [],
    created: version.created,
  };
}

const PERMISSION_COUNTS = [
  [0, 8],
  [1, 15],
  [2, 20],
  [3, 20],
  [4, 15],
  [5, 10],
  [6, 7],
  [8, 5],
] as const;

/** Legacy (pre-WebExtension) add-ons were created before WebExtensions became the only kind (Nov 2017). */
export const LEGACY_UNTIL = Date.UTC(2017, 10, 14);
