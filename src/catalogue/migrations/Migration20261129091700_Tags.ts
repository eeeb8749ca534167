import { Migration } from '@mikro-orm/migrations';

/**
 * The tag list (issue 37: the original's tag model, `GET /addons/tags/`): the tags the catalogue
 * offered until now (the seed's list, most used first, so ids keep that order), then every other
 * tag an add-on already carries, so that no add-on holds a tag outside the list.
 */
// prettier-ignore
const TAGS = [
  'ad blocker', 'anti malware', 'anti tracker', 'antivirus', 'automation', 'bookmarks', 'chat', 'coupon',
  'dark mode', 'download manager', 'facebook', 'games', 'google', 'history', 'image', 'music', 'news',
  'notes', 'password manager', 'pinterest', 'privacy', 'productivity', 'proxy', 'reddit', 'screen reader',
  'screenshot', 'search', 'security', 'shopping', 'social media', 'tab manager', 'todo', 'translation',
  'twitter', 'video', 'video downloader', 'vpn', 'wallpaper', 'weather', 'youtube',
];

export class Migration20261129091700_Tags extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "tags" ("id" serial primary key, "tag_text" varchar(128) not null, "created" timestamptz not null default now());`,
    );
    this.addSql(`alter table "tags" add constraint "tags_tag_text_unique" unique ("tag_text");`);
    const values = TAGS.map((tag) => `('${tag.replaceAll("'", "''")}')`).join(', ');
    this.addSql(`insert into "tags" ("tag_text") values ${values};`);
    this.addSql(`insert into "tags" ("tag_text")
      select distinct t from "addons", unnest("tags") as t
       where t <> '' and char_length(t) <= 128 and t not in (select "tag_text" from "tags")
       order by t;`);
    // Any change outdates the cached answers of the list (cache tag `tags:all`).
    this.addSql(`create or replace function tags_cache_tags() returns trigger language plpgsql as $$
      begin perform cache_bump(array['tags:all']); return null; end $$;`);
    this.addSql(`create trigger "tags_cache_tags" after insert or update or delete or truncate on "tags"
      for each statement execute function tags_cache_tags();`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "tags" cascade;`);
    this.addSql(`drop function if exists tags_cache_tags();`);
  }
}
