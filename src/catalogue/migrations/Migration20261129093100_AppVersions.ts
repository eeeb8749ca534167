import { Migration } from '@mikro-orm/migrations';

/**
 * The browser versions add-ons may name (the original's `appversions`, issue 37's
 * `PUT /api/v5/applications/<app>/<version>/`), for Firefox (1) and Firefox for Android (61). It
 * starts with every version the catalogue's compatibility ranges already name (their `version_int`
 * as stored there), so the list is not empty before release automation registers the next one.
 */
export class Migration20261129093100_AppVersions extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "app_versions" ("id" serial primary key, "application" smallint not null, "version" varchar(255) not null, "version_int" bigint not null, "created" timestamptz not null default now());`,
    );
    this.addSql(
      `alter table "app_versions" add constraint "app_versions_application_version_unique" unique ("application", "version");`,
    );
    this.addSql(`insert into "app_versions" ("application", "version", "version_int")
      select "application", "version", min("version_int") from (
        select "application", "min" as "version", "min_int" as "version_int" from "version_compat"
        union all
        select "application", "max", "max_int" from "version_compat"
      ) as named
      where "application" in (1, 61) and "version" <> '*' and "version" <> ''
      group by "application", "version"
      order by min("version_int"), "version";`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "app_versions" cascade;`);
  }
}
