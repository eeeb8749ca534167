import { Migration } from '@mikro-orm/migrations';

export class Migration20261121073601_Catalogue extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "categories" ("id" serial primary key, "application" smallint not null, "type" smallint not null, "slug" varchar(50) not null, "name" jsonb not null, "description" jsonb null, "weight" int not null default 0, "misc" boolean not null default false);`);
    this.addSql(`alter table "categories" add constraint "categories_application_type_slug_unique" unique ("application", "type", "slug");`);

    this.addSql(`create table "licenses" ("id" serial primary key, "builtin" smallint not null default 0, "name" jsonb null, "url" varchar(255) null, "text" jsonb null);`);

    this.addSql(`create table "addons" ("id" serial primary key, "guid" varchar(255) null, "slug" varchar(255) not null, "type" smallint not null default 1, "status" smallint not null default 0, "disabled_by_user" boolean not null default false, "default_locale" varchar(10) not null default 'en-US', "name" jsonb null, "summary" jsonb null, "description" jsonb null, "developer_comments" jsonb null, "homepage" jsonb null, "support_url" jsonb null, "support_email" jsonb null, "eula" jsonb null, "privacy_policy" jsonb null, "contributions_url" varchar(255) null, "requires_payment" boolean not null default false, "is_experimental" boolean not null default false, "public_stats" boolean not null default true, "icon_type" varchar(25) null, "icon_hash" varchar(8) null, "average_daily_users" int not null default 0, "weekly_downloads" int not null default 0, "hotness" real not null default 0, "average_rating" real not null default 0, "bayesian_rating" real not null default 0, "total_ratings" int not null default 0, "text_ratings_count" int not null default 0, "current_version_id" int null, "promoted_category" smallint null, "promoted_apps" smallint[] not null default '{}', "tags" text[] not null default '{}', "category_ids" int[] not null default '{}', "compat_apps" smallint[] not null default '{}', "compat_min" bigint[] not null default '{}', "compat_max" bigint[] not null default '{}', "platforms" smallint[] not null default '{}', "colors" jsonb null, "last_updated" timestamptz null, "created" timestamptz not null default now(), "modified" timestamptz not null default now());`);
    this.addSql(`alter table "addons" add constraint "addons_guid_unique" unique ("guid");`);
    this.addSql(`alter table "addons" add constraint "addons_slug_unique" unique ("slug");`);
    this.addSql(`create index "addons_current_version_id_index" on "addons" ("current_version_id");`);
    this.addSql(`create index "addons_guid_lower_index" on "addons" (lower("guid"));`);

    this.addSql(`create table "versions" ("id" serial primary key, "addon_id" int not null, "version" varchar(255) not null, "channel" smallint not null default 2, "license_id" int null, "release_notes" jsonb null, "deleted" boolean not null default false, "created" timestamptz not null default now(), "reviewed" timestamptz null);`);
    this.addSql(`create index "versions_addon_id_channel_id_index" on "versions" ("addon_id", "channel", "id");`);

    this.addSql(`create table "files" ("id" serial primary key, "version_id" int not null, "platform" smallint not null default 1, "status" smallint not null default 1, "filename" varchar(255) not null, "hash" varchar(255) not null default '', "size" bigint not null default 0, "is_webextension" boolean not null default true, "is_restart_required" boolean not null default false, "is_vendor_signed" boolean not null default false, "strict_compatibility" boolean not null default false, "permissions" text[] not null default '{}', "optional_permissions" text[] not null default '{}', "created" timestamptz not null default now());`);
    this.addSql(`create index "files_version_id_index" on "files" ("version_id");`);

    this.addSql(`create table "previews" ("id" serial primary key, "addon_id" int not null, "position" int not null default 0, "caption" jsonb null, "image_size" int[] not null default '{}', "thumbnail_size" int[] not null default '{}', "image_format" varchar(10) not null default 'png', "modified" timestamptz not null default now());`);
    this.addSql(`create index "previews_addon_id_index" on "previews" ("addon_id");`);

    this.addSql(`create table "featured_addons" ("id" serial primary key, "addon_id" int not null, "application" smallint not null, "locale" varchar(10) null);`);
    this.addSql(`create index "featured_addons_addon_id_index" on "featured_addons" ("addon_id");`);

    this.addSql(`create table "addon_users" ("id" serial primary key, "addon_id" int not null, "user_id" int not null, "role" smallint not null default 5, "listed" boolean not null default true, "position" int not null default 0);`);
    this.addSql(`create index "addon_users_user_id_index" on "addon_users" ("user_id");`);
    this.addSql(`alter table "addon_users" add constraint "addon_users_addon_id_user_id_unique" unique ("addon_id", "user_id");`);

    this.addSql(`create table "version_compat" ("id" serial primary key, "version_id" int not null, "application" smallint not null, "min" varchar(255) not null, "max" varchar(255) not null, "min_int" bigint not null, "max_int" bigint not null);`);
    this.addSql(`alter table "version_compat" add constraint "version_compat_version_id_application_unique" unique ("version_id", "application");`);

    // Search text: every locale of name (A), summary (B), tags (C) and description (D).
    this.addSql(`create or replace function addons_translations_text(t jsonb) returns text
      language sql immutable parallel safe as $$
        select coalesce(string_agg(value, ' '), '') from jsonb_each_text(coalesce(t, '{}'::jsonb))
      $$;`);
    this.addSql(`create or replace function addons_tags_text(t text[]) returns text
      language sql immutable parallel safe as $$ select coalesce(array_to_string(t, ' '), '') $$;`);
    this.addSql(`alter table "addons" add column "search_vector" tsvector generated always as (
      setweight(to_tsvector('english'::regconfig, addons_translations_text(name)), 'A') ||
      setweight(to_tsvector('english'::regconfig, addons_translations_text(summary)), 'B') ||
      setweight(to_tsvector('english'::regconfig, addons_tags_text(tags)), 'C') ||
      setweight(to_tsvector('english'::regconfig, addons_translations_text(description)), 'D')) stored;`);
    this.addSql(`alter table "addons" add column "search_name" text generated always as (lower(addons_translations_text(name))) stored;`);

    this.addSql(`alter table "addons" add constraint "addons_current_version_id_foreign" foreign key ("current_version_id") references "versions" ("id") on update cascade on delete set null;`);

    this.addSql(`alter table "versions" add constraint "versions_addon_id_foreign" foreign key ("addon_id") references "addons" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "versions" add constraint "versions_license_id_foreign" foreign key ("license_id") references "licenses" ("id") on update cascade on delete set null;`);

    this.addSql(`alter table "files" add constraint "files_version_id_foreign" foreign key ("version_id") references "versions" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "previews" add constraint "previews_addon_id_foreign" foreign key ("addon_id") references "addons" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "featured_addons" add constraint "featured_addons_addon_id_foreign" foreign key ("addon_id") references "addons" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "addon_users" add constraint "addon_users_addon_id_foreign" foreign key ("addon_id") references "addons" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "addon_users" add constraint "addon_users_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "version_compat" add constraint "version_compat_version_id_foreign" foreign key ("version_id") references "versions" ("id") on update cascade on delete cascade;`);

    // Categories per application and type (slugs repeat across applications), and built-in licences.
    this.addSql(`insert into "categories" ("application", "type", "slug", "name", "weight", "misc") values
      (1, 1, 'alerts-updates', '{"en-US": "Alerts & Updates"}', 0, false),
      (1, 1, 'appearance', '{"en-US": "Appearance"}', 0, false),
      (1, 1, 'bookmarks', '{"en-US": "Bookmarks"}', 0, false),
      (1, 1, 'download-management', '{"en-US": "Download Management"}', 0, false),
      (1, 1, 'feeds-news-blogging', '{"en-US": "Feeds, News & Blogging"}', 0, false),
      (1, 1, 'games-entertainment', '{"en-US": "Games & Entertainment"}', 0, false),
      (1, 1, 'language-support', '{"en-US": "Language Support"}', 0, false),
      (1, 1, 'photos-music-videos', '{"en-US": "Photos, Music & Videos"}', 0, false),
      (1, 1, 'privacy-security', '{"en-US": "Privacy & Security"}', 0, false),
      (1, 1, 'search-tools', '{"en-US": "Search Tools"}', 0, false),
      (1, 1, 'shopping', '{"en-US": "Shopping"}', 0, false),
      (1, 1, 'social-communication', '{"en-US": "Social & Communication"}', 0, false),
      (1, 1, 'tabs', '{"en-US": "Tabs"}', 0, false),
      (1, 1, 'web-development', '{"en-US": "Web Development"}', 0, false),
      (1, 1, 'other', '{"en-US": "Other"}', 1000, true),
      (1, 10, 'abstract', '{"en-US": "Abstract"}', 0, false),
      (1, 10, 'causes', '{"en-US": "Causes"}', 0, false),
      (1, 10, 'fashion', '{"en-US": "Fashion"}', 0, false),
      (1, 10, 'film-and-tv', '{"en-US": "Film and TV"}', 0, false),
      (1, 10, 'holiday', '{"en-US": "Holiday"}', 0, false),
      (1, 10, 'music', '{"en-US": "Music"}', 0, false),
      (1, 10, 'nature', '{"en-US": "Nature"}', 0, false),
      (1, 10, 'scenery', '{"en-US": "Scenery"}', 0, false),
      (1, 10, 'seasonal', '{"en-US": "Seasonal"}', 0, false),
      (1, 10, 'solid', '{"en-US": "Solid"}', 0, false),
      (1, 10, 'sports', '{"en-US": "Sports"}', 0, false),
      (1, 10, 'websites', '{"en-US": "Websites"}', 0, false),
      (1, 10, 'other', '{"en-US": "Other"}', 1000, true),
      (1, 3, 'general', '{"en-US": "General"}', 0, false),
      (1, 5, 'general', '{"en-US": "General"}', 0, false),
      (1, 4, 'general', '{"en-US": "General"}', 0, false),
      (61, 1, 'device-features-location', '{"en-US": "Device Features & Location"}', 0, false),
      (61, 1, 'experimental', '{"en-US": "Experimental"}', 0, false),
      (61, 1, 'feeds-news-blogging', '{"en-US": "Feeds, News & Blogging"}', 0, false),
      (61, 1, 'performance', '{"en-US": "Performance"}', 0, false),
      (61, 1, 'photos-media', '{"en-US": "Photos & Media"}', 0, false),
      (61, 1, 'security-privacy', '{"en-US": "Security & Privacy"}', 0, false),
      (61, 1, 'shopping', '{"en-US": "Shopping"}', 0, false),
      (61, 1, 'social-networking', '{"en-US": "Social Networking"}', 0, false),
      (61, 1, 'sports-games', '{"en-US": "Sports & Games"}', 0, false),
      (61, 1, 'user-interface', '{"en-US": "User Interface"}', 0, false),
      (61, 1, 'other', '{"en-US": "Other"}', 1000, true),
      (18, 1, 'appearance', '{"en-US": "Appearance"}', 0, false),
      (18, 1, 'message-and-news-reading', '{"en-US": "Message And News Reading"}', 0, false),
      (18, 1, 'privacy-security', '{"en-US": "Privacy & Security"}', 0, false),
      (18, 1, 'tags', '{"en-US": "Tags"}', 0, false),
      (18, 1, 'other', '{"en-US": "Other"}', 1000, true),
      (59, 1, 'appearance', '{"en-US": "Appearance"}', 0, false),
      (59, 1, 'bookmarks', '{"en-US": "Bookmarks"}', 0, false),
      (59, 1, 'privacy-security', '{"en-US": "Privacy & Security"}', 0, false),
      (59, 1, 'other', '{"en-US": "Other"}', 1000, true);`);
    this.addSql(`insert into "licenses" ("builtin", "name", "url") values
      (1, '{"en-US": "Mozilla Public License 2.0"}', 'https://www.mozilla.org/MPL/2.0/'),
      (2, '{"en-US": "GNU General Public License v2.0"}', 'https://www.gnu.org/licenses/gpl-2.0.html'),
      (3, '{"en-US": "GNU General Public License v3.0"}', 'https://www.gnu.org/licenses/gpl-3.0.html'),
      (4, '{"en-US": "GNU Lesser General Public License v2.1"}', 'https://www.gnu.org/licenses/lgpl-2.1.html'),
      (5, '{"en-US": "GNU Lesser General Public License v3.0"}', 'https://www.gnu.org/licenses/lgpl-3.0.html'),
      (6, '{"en-US": "The MIT License"}', 'https://opensource.org/licenses/mit-license.php'),
      (7, '{"en-US": "BSD 2-Clause License"}', 'https://opensource.org/licenses/bsd-license.php'),
      (8, '{"en-US": "All Rights Reserved"}', null),
      (9, '{"en-US": "Creative Commons Attribution 3.0"}', 'https://creativecommons.org/licenses/by/3.0/');`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "versions" drop constraint "versions_license_id_foreign";`);

    this.addSql(`alter table "versions" drop constraint "versions_addon_id_foreign";`);

    this.addSql(`alter table "previews" drop constraint "previews_addon_id_foreign";`);

    this.addSql(`alter table "featured_addons" drop constraint "featured_addons_addon_id_foreign";`);

    this.addSql(`alter table "addon_users" drop constraint "addon_users_addon_id_foreign";`);

    this.addSql(`alter table "addons" drop constraint "addons_current_version_id_foreign";`);

    this.addSql(`alter table "files" drop constraint "files_version_id_foreign";`);

    this.addSql(`alter table "version_compat" drop constraint "version_compat_version_id_foreign";`);

    this.addSql(`drop table if exists "categories" cascade;`);

    this.addSql(`drop table if exists "licenses" cascade;`);

    this.addSql(`drop table if exists "addons" cascade;`);

    this.addSql(`drop table if exists "versions" cascade;`);

    this.addSql(`drop table if exists "files" cascade;`);

    this.addSql(`drop table if exists "previews" cascade;`);

    this.addSql(`drop table if exists "featured_addons" cascade;`);

    this.addSql(`drop table if exists "addon_users" cascade;`);

    this.addSql(`drop table if exists "version_compat" cascade;`);
  }

}
