import { Migration } from '@mikro-orm/migrations';

export class Migration20261121111639_Ratings extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "rating_throttles" ("user_id" int not null, "scope" varchar(16) not null, "last_at" timestamptz not null, constraint "rating_throttles_pkey" primary key ("user_id", "scope"));`);

    this.addSql(`create table "ratings" ("id" serial primary key, "addon_id" int not null, "version_id" int null, "user_id" int not null, "reply_to_id" int null, "score" smallint null, "body" text null, "ip_address" varchar(45) null, "editor_review" boolean not null default false, "deleted" boolean not null default false, "is_latest" boolean not null default true, "previous_count" int not null default 0, "created" timestamptz not null default now(), "modified" timestamptz not null default now());`);
    this.addSql(`create index "ratings_version_id_index" on "ratings" ("version_id");`);
    this.addSql(`alter table "ratings" add constraint "ratings_reply_to_id_unique" unique ("reply_to_id");`);
    this.addSql(`create index "ratings_user_id_created_index" on "ratings" ("user_id", "created");`);
    this.addSql(`create index "ratings_addon_id_created_index" on "ratings" ("addon_id", "created");`);
    this.addSql(`create index "ratings_addon_id_user_id_index" on "ratings" ("addon_id", "user_id");`);
    this.addSql(`create unique index "ratings_one_per_version" on "ratings" ("version_id", "user_id") where reply_to_id is null and not deleted;`);

    this.addSql(`create table "rating_flags" ("id" serial primary key, "rating_id" int not null, "user_id" int not null, "flag" varchar(64) not null, "note" varchar(100) not null default '', "created" timestamptz not null default now(), "modified" timestamptz not null default now());`);
    this.addSql(`create index "rating_flags_user_id_index" on "rating_flags" ("user_id");`);
    this.addSql(`alter table "rating_flags" add constraint "rating_flags_rating_id_user_id_unique" unique ("rating_id", "user_id");`);

    this.addSql(`alter table "rating_throttles" add constraint "rating_throttles_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "ratings" add constraint "ratings_addon_id_foreign" foreign key ("addon_id") references "addons" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "ratings" add constraint "ratings_version_id_foreign" foreign key ("version_id") references "versions" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "ratings" add constraint "ratings_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "ratings" add constraint "ratings_reply_to_id_foreign" foreign key ("reply_to_id") references "ratings" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "rating_flags" add constraint "rating_flags_rating_id_foreign" foreign key ("rating_id") references "ratings" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "rating_flags" add constraint "rating_flags_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "ratings" drop constraint "ratings_reply_to_id_foreign";`);

    this.addSql(`alter table "rating_flags" drop constraint "rating_flags_rating_id_foreign";`);

    this.addSql(`drop table if exists "rating_throttles" cascade;`);

    this.addSql(`drop table if exists "ratings" cascade;`);

    this.addSql(`drop table if exists "rating_flags" cascade;`);
  }

}
