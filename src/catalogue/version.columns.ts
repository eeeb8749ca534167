import type { Translations } from '../core/i18n/translations.js';
import { column, nullable, pg, table, writeOnly } from '../db/columns.js';
import type { Channel, FileStatus, Platform } from './catalogue.enums.js';

/**
 * The columns of a version, its compatibility and its files that plain-row reads select (the
 * records in `catalogue.records.ts`, keyed as their fields) and the seeder writes, each once, in
 * table order. The entities (`version.entity.ts`) stay the tables' definitions for migrations.
 */

export const VERSION_TABLE = table('versions', {
  id: column('id', pg.int),
  addon: column('addon_id', pg.ref),
  version: column('version', pg.text),
  channel: column('channel', pg.smallintEnum<Channel>()),
  license: column('license_id', nullable(pg.ref)),
  releaseNotes: column('release_notes', nullable(pg.jsonb<Translations>())),
  deleted: column('deleted', pg.boolean),
  created: column('created', pg.timestamptz),
  reviewed: column('reviewed', nullable(pg.timestamptz)),
});

/** Read without its id and the comparable integer forms of the bounds (search only). */
export const COMPAT_TABLE = table('version_compat', {
  id: writeOnly('id', pg.int),
  version: column('version_id', pg.ref),
  application: column('application', pg.smallint),
  min: column('min', pg.text),
  max: column('max', pg.text),
  minInt: writeOnly('min_int', pg.bigint),
  maxInt: writeOnly('max_int', pg.bigint),
});

export const FILE_TABLE = table('files', {
  id: column('id', pg.int),
  version: column('version_id', pg.ref),
  platform: column('platform', pg.smallintEnum<Platform>()),
  status: column('status', pg.smallintEnum<FileStatus>()),
  filename: column('filename', pg.text),
  hash: column('hash', pg.text),
  size: column('size', pg.bigint),
  isWebextension: column('is_webextension', pg.boolean),
  isRestartRequired: column('is_restart_required', pg.boolean),
  isVendorSigned: column('is_vendor_signed', pg.boolean),
  strictCompatibility: column('strict_compatibility', pg.boolean),
  permissions: column('permissions', pg.textArray),
  optionalPermissions: column('optional_permissions', pg.textArray),
  hostPermissions: column('host_permissions', pg.textArray),
  dataCollectionPermissions: column('data_collection_permissions', pg.textArray),
  optionalDataCollectionPermissions: column('optional_data_collection_permissions', pg.textArray),
  created: column('created', pg.timestamptz),
});
