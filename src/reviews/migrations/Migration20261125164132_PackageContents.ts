import { Migration } from '@mikro-orm/migrations';

export class Migration20261125164132_PackageContents extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "package_contents" ("hash" varchar(80) not null, "entries" jsonb not null, "created" timestamptz not null default now(), constraint "package_contents_pkey" primary key ("hash"));`);

    this.addSql(`create table "package_file_diffs" ("id" serial primary key, "parent_hash" varchar(80) not null, "hash" varchar(80) not null, "path" text not null, "diff" jsonb not null, "created" timestamptz not null default now());`);
    this.addSql(`alter table "package_file_diffs" add constraint "package_file_diffs_parent_hash_hash_path_unique" unique ("parent_hash", "hash", "path");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "package_contents" cascade;`);

    this.addSql(`drop table if exists "package_file_diffs" cascade;`);
  }

}
