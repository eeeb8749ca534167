import { Migration } from '@mikro-orm/migrations';

/**
 * Application versions with a major of more than two digits (Firefox 128): `*` now stands above
 * 99999.99.99.99 (`STAR_VERSION_INT`), where it stood above 99.99.99.99. Stored compatibility ranges
 * ending at `*`, and the search columns that copy them, move to the new value (a Meilisearch index
 * is refilled by `npm run cli -- search:reindex`).
 */
export class Migration20261129030000_WideAppVersions extends Migration {
  override async up(): Promise<void> {
    this.addSql(`update "version_compat" set "max_int" = 99999999999999 where "max_int" = 99999999999;`);
    this.addSql(
      `update "addons" set "compat_max" = array_replace("compat_max", 99999999999::bigint, 99999999999999::bigint) where 99999999999::bigint = any("compat_max");`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`update "version_compat" set "max_int" = 99999999999 where "max_int" = 99999999999999;`);
    this.addSql(
      `update "addons" set "compat_max" = array_replace("compat_max", 99999999999999::bigint, 99999999999::bigint) where 99999999999999::bigint = any("compat_max");`,
    );
  }
}
