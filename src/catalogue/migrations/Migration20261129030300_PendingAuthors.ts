import { Migration } from '@mikro-orm/migrations';

/** Invitations to become an author of an add-on (issue 37: the original's pending authors). */
export class Migration20261129030300_PendingAuthors extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "addon_pending_authors" ("id" serial primary key, "addon_id" int not null, "user_id" int not null, "role" smallint not null default 4, "listed" boolean not null default true, "created" timestamptz not null default now());`,
    );
    this.addSql(`create index "addon_pending_authors_user_id_index" on "addon_pending_authors" ("user_id");`);
    this.addSql(
      `alter table "addon_pending_authors" add constraint "addon_pending_authors_addon_id_user_id_unique" unique ("addon_id", "user_id");`,
    );
    this.addSql(
      `alter table "addon_pending_authors" add constraint "addon_pending_authors_addon_id_foreign" foreign key ("addon_id") references "addons" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "addon_pending_authors" add constraint "addon_pending_authors_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "addon_pending_authors" cascade;`);
  }
}
