import { Migration } from '@mikro-orm/migrations';

/** Developers' support tickets (`POST /api/v5/developers/support`), mailed to SUPPORT_EMAIL. */
export class Migration20261129094000_SupportTickets extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "support_tickets" ("id" serial primary key, "user_id" int null, "summary" varchar(255) not null, "body" text not null, "category" varchar(16) not null, "ip_address" varchar(45) null, "created" timestamptz not null default now(), "mailed_at" timestamptz null);`,
    );
    this.addSql(`create index "support_tickets_user_id_index" on "support_tickets" ("user_id");`);
    this.addSql(
      `alter table "support_tickets" add constraint "support_tickets_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete set null;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "support_tickets" cascade;`);
  }
}
