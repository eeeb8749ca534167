import { Migration } from '@mikro-orm/migrations';

/** Version source code archives: one row per version with an archive in the private file storage. */
export class Migration20261127223500_VersionSources extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "version_sources" ("version_id" int not null, "storage_key" varchar(255) not null, "filename" varchar(255) not null, "size" bigint not null, "uploaded_by_id" int null, "created" timestamptz not null default now(), constraint "version_sources_pkey" primary key ("version_id"));`);

    this.addSql(`alter table "version_sources" add constraint "version_sources_version_id_foreign" foreign key ("version_id") references "versions" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "version_sources" add constraint "version_sources_uploaded_by_id_foreign" foreign key ("uploaded_by_id") references "users" ("id") on update cascade on delete set null;`);

    // Shown with its version (`hasSource`, `has_source`): cached answers showing the add-on are
    // outdated in the writing transaction, as for the version's files (CacheTags migration).
    this.addSql(`create trigger "version_sources_cache_tags_insert" after insert on "version_sources"
      referencing new table as new_rows for each statement execute function version_rows_cache_tags();`);
    this.addSql(`create trigger "version_sources_cache_tags_update" after update on "version_sources"
      referencing old table as old_rows new table as new_rows for each statement execute function version_rows_cache_tags();`);
    this.addSql(`create trigger "version_sources_cache_tags_delete" after delete on "version_sources"
      referencing old table as old_rows for each statement execute function version_rows_cache_tags();`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "version_sources" cascade;`);
  }

}
