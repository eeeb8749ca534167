import { Migration } from '@mikro-orm/migrations';

export class Migration20261121103104_Signing extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "denied_guids" ("id" serial primary key, "guid" varchar(255) not null, "comments" text not null default '', "created" timestamptz not null default now());`);
    this.addSql(`alter table "denied_guids" add constraint "denied_guids_guid_unique" unique ("guid");`);

    this.addSql(`create table "review_reply_tokens" ("uuid" varchar(32) not null, "version_id" int not null, "user_id" int not null, "use_count" int not null default 0, "created" timestamptz not null default now(), constraint "review_reply_tokens_pkey" primary key ("uuid"));`);
    this.addSql(`create index "review_reply_tokens_version_id_user_id_index" on "review_reply_tokens" ("version_id", "user_id");`);

    this.addSql(`create table "review_notes" ("id" serial primary key, "addon_id" int not null, "version_id" int not null, "user_id" int null, "action" smallint not null, "comments" text not null default '', "created" timestamptz not null default now());`);
    this.addSql(`create index "review_notes_addon_id_index" on "review_notes" ("addon_id");`);
    this.addSql(`create index "review_notes_version_id_id_index" on "review_notes" ("version_id", "id");`);

    this.addSql(`create table "file_uploads" ("uuid" varchar(32) not null, "user_id" int not null, "addon_id" int not null, "version" varchar(255) not null, "channel" smallint not null, "addon_type" smallint not null, "automated_signing" boolean not null, "filename" varchar(255) not null, "storage_key" varchar(255) not null, "size" bigint not null default 0, "hash" varchar(80) not null, "validation" jsonb null, "processed_at" timestamptz null, "valid" boolean not null default false, "created_version_id" int null, "created" timestamptz not null default now(), constraint "file_uploads_pkey" primary key ("uuid"));`);
    this.addSql(`create index "file_uploads_user_id_index" on "file_uploads" ("user_id");`);
    this.addSql(`create index "file_uploads_addon_id_version_index" on "file_uploads" ("addon_id", "version");`);

    this.addSql(`create table "addon_reviewer_flags" ("addon_id" int not null, "auto_approval_disabled" boolean not null default false, "auto_approval_disabled_until_next_approval" boolean not null default false, "auto_approval_delayed_until" timestamptz null, "needs_admin_code_review" boolean not null default false, "needs_admin_content_review" boolean not null default false, "needs_admin_theme_review" boolean not null default false, constraint "addon_reviewer_flags_pkey" primary key ("addon_id"));`);

    this.addSql(`alter table "review_reply_tokens" add constraint "review_reply_tokens_version_id_foreign" foreign key ("version_id") references "versions" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "review_reply_tokens" add constraint "review_reply_tokens_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "review_notes" add constraint "review_notes_addon_id_foreign" foreign key ("addon_id") references "addons" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "review_notes" add constraint "review_notes_version_id_foreign" foreign key ("version_id") references "versions" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "review_notes" add constraint "review_notes_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete set null;`);

    this.addSql(`alter table "file_uploads" add constraint "file_uploads_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "file_uploads" add constraint "file_uploads_addon_id_foreign" foreign key ("addon_id") references "addons" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "file_uploads" add constraint "file_uploads_created_version_id_foreign" foreign key ("created_version_id") references "versions" ("id") on update cascade on delete set null;`);

    this.addSql(`alter table "addon_reviewer_flags" add constraint "addon_reviewer_flags_addon_id_foreign" foreign key ("addon_id") references "addons" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "versions" add constraint "versions_addon_id_version_unique" unique ("addon_id", "version");`);

    this.addSql(`alter table "files" add column "reviewed" timestamptz null, add column "is_signed" boolean not null default false, add column "storage_key" varchar(255) not null default '';`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "denied_guids" cascade;`);

    this.addSql(`drop table if exists "review_reply_tokens" cascade;`);

    this.addSql(`drop table if exists "review_notes" cascade;`);

    this.addSql(`drop table if exists "file_uploads" cascade;`);

    this.addSql(`drop table if exists "addon_reviewer_flags" cascade;`);

    this.addSql(`alter table "files" drop column "reviewed", drop column "is_signed", drop column "storage_key";`);

    this.addSql(`alter table "versions" drop constraint "versions_addon_id_version_unique";`);
  }

}
