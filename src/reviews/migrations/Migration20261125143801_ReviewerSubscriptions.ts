import { Migration } from '@mikro-orm/migrations';

export class Migration20261125143801_ReviewerSubscriptions extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "reviewer_subscriptions" ("id" serial primary key, "user_id" int not null, "addon_id" int not null, "channel" smallint not null, "created" timestamptz not null default now());`);
    this.addSql(`create index "reviewer_subscriptions_user_id_index" on "reviewer_subscriptions" ("user_id");`);
    this.addSql(`alter table "reviewer_subscriptions" add constraint "reviewer_subscriptions_addon_id_channel_user_id_unique" unique ("addon_id", "channel", "user_id");`);

    this.addSql(`alter table "reviewer_subscriptions" add constraint "reviewer_subscriptions_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "reviewer_subscriptions" add constraint "reviewer_subscriptions_addon_id_foreign" foreign key ("addon_id") references "addons" ("id") on update cascade on delete cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "reviewer_subscriptions" cascade;`);
  }

}
