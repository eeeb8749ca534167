import { Migration } from '@mikro-orm/migrations';

export class Migration20261121071440_Initial extends Migration {

  override async up(): Promise<void> {
    // Trigram matching for search (typos, prefixes). Trusted extension: no superuser needed on PG >= 13.
    this.addSql(`create extension if not exists pg_trgm;`);

    this.addSql(`create table "groups" ("id" serial primary key, "name" varchar(200) not null, "rules" text[] not null default '{}', "created" timestamptz not null default now());`);
    this.addSql(`alter table "groups" add constraint "groups_name_unique" unique ("name");`);

    this.addSql(`create table "jwt_nonces" ("issuer" varchar(255) not null, "jti" varchar(255) not null, "expires_at" timestamptz not null, constraint "jwt_nonces_pkey" primary key ("issuer", "jti"));`);
    this.addSql(`create index "jwt_nonces_expires_at_index" on "jwt_nonces" ("expires_at");`);

    this.addSql(`create table "site_settings" ("key" varchar(100) not null, "value" jsonb not null, "modified" timestamptz not null default now(), constraint "site_settings_pkey" primary key ("key"));`);

    this.addSql(`create table "users" ("id" serial primary key, "username" varchar(255) not null, "email" varchar(255) not null, "display_name" varchar(50) null, "biography" text null, "homepage" varchar(255) null, "location" varchar(255) null, "occupation" varchar(255) null, "deleted" boolean not null default false, "read_dev_agreement" timestamptz null, "last_login" timestamptz null, "last_login_ip" varchar(45) null, "created" timestamptz not null default now(), "modified" timestamptz not null default now());`);
    this.addSql(`alter table "users" add constraint "users_username_unique" unique ("username");`);
    this.addSql(`alter table "users" add constraint "users_email_unique" unique ("email");`);

    this.addSql(`create table "sessions" ("id" uuid not null, "user_id" int not null, "created" timestamptz not null default now(), "expires_at" timestamptz not null, "revoked_at" timestamptz null, constraint "sessions_pkey" primary key ("id"));`);

    this.addSql(`create table "api_keys" ("id" serial primary key, "user_id" int not null, "key" varchar(255) not null, "secret_ciphertext" text not null, "is_active" boolean null default true, "created" timestamptz not null default now());`);
    this.addSql(`alter table "api_keys" add constraint "api_keys_key_unique" unique ("key");`);
    this.addSql(`create unique index "api_keys_one_active_per_user" on "api_keys" ("user_id") where "is_active";`);

    this.addSql(`create table "users_groups" ("user_id" int not null, "group_id" int not null, constraint "users_groups_pkey" primary key ("user_id", "group_id"));`);

    this.addSql(`alter table "sessions" add constraint "sessions_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "api_keys" add constraint "api_keys_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "users_groups" add constraint "users_groups_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "users_groups" add constraint "users_groups_group_id_foreign" foreign key ("group_id") references "groups" ("id") on update cascade on delete cascade;`);

    this.addSql(`create index "sessions_user_id_index" on "sessions" ("user_id");`);

    // The groups an operator starts with; `npm run cli -- users:create --group <name>` uses them.
    this.addSql(`insert into "groups" ("name", "rules") values
      ('Admins', '{*:*}'),
      ('Reviewers', '{Addons:Review,ReviewerTools:View}'),
      ('Unlisted Reviewers', '{Addons:ReviewUnlisted,ReviewerTools:View}'),
      ('Theme Reviewers', '{Addons:ThemeReview,ReviewerTools:View}'),
      ('Content Reviewers', '{Addons:ContentReview,ReviewerTools:View}'),
      ('Review Admins', '{Reviews:Admin,Addons:Review,Addons:ReviewUnlisted,ReviewerTools:View}'),
      ('Rating Moderators', '{Ratings:Moderate}'),
      ('Curators', '{Admin:Curation,Collections:Contribute}'),
      ('Accounts:SuperCreate', '{Accounts:SuperCreate}')
      on conflict ("name") do nothing;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "users_groups" drop constraint "users_groups_group_id_foreign";`);

    this.addSql(`alter table "sessions" drop constraint "sessions_user_id_foreign";`);

    this.addSql(`alter table "api_keys" drop constraint "api_keys_user_id_foreign";`);

    this.addSql(`alter table "users_groups" drop constraint "users_groups_user_id_foreign";`);

    this.addSql(`drop table if exists "groups" cascade;`);

    this.addSql(`drop table if exists "jwt_nonces" cascade;`);

    this.addSql(`drop table if exists "site_settings" cascade;`);

    this.addSql(`drop table if exists "users" cascade;`);

    this.addSql(`drop table if exists "sessions" cascade;`);

    this.addSql(`drop table if exists "api_keys" cascade;`);

    this.addSql(`drop table if exists "users_groups" cascade;`);
  }

}
