import { Migration } from '@mikro-orm/migrations';

export class Migration20261127224500_Webhooks extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "webhook_endpoints" ("id" serial primary key, "owner_id" int not null, "addon_id" int null, "url" text not null, "events" jsonb not null, "description" varchar(255) not null default '', "secret_ciphertext" text not null, "is_active" boolean not null default true, "last_sequence" bigint not null default 0, "created" timestamptz not null default now());`);
    this.addSql(`create index "webhook_endpoints_owner_id_index" on "webhook_endpoints" ("owner_id");`);
    this.addSql(`create index "webhook_endpoints_addon_id_index" on "webhook_endpoints" ("addon_id");`);

    this.addSql(`create table "webhook_deliveries" ("id" serial primary key, "endpoint_id" int not null, "event_id" varchar(64) not null, "type" varchar(64) not null, "addon_id" int null, "occurred_at" timestamptz not null, "rank" smallint not null default 0, "sequence" bigint null, "payload" jsonb not null, "status" varchar(16) not null default 'pending', "attempts" smallint not null default 0, "last_status_code" smallint null, "last_error" varchar(255) null, "response_excerpt" text null, "next_attempt_at" timestamptz null, "locked_until" timestamptz null, "created" timestamptz not null default now(), "delivered" timestamptz null);`);
    this.addSql(`create index "webhook_deliveries_endpoint_id_status_index" on "webhook_deliveries" ("endpoint_id", "status");`);
    this.addSql(`alter table "webhook_deliveries" add constraint "webhook_deliveries_endpoint_id_event_id_unique" unique ("endpoint_id", "event_id");`);

    this.addSql(`alter table "webhook_endpoints" add constraint "webhook_endpoints_owner_id_foreign" foreign key ("owner_id") references "users" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "webhook_endpoints" add constraint "webhook_endpoints_addon_id_foreign" foreign key ("addon_id") references "addons" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "webhook_deliveries" add constraint "webhook_deliveries_endpoint_id_foreign" foreign key ("endpoint_id") references "webhook_endpoints" ("id") on update cascade on delete cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "webhook_deliveries" drop constraint "webhook_deliveries_endpoint_id_foreign";`);

    this.addSql(`drop table if exists "webhook_deliveries" cascade;`);
    this.addSql(`drop table if exists "webhook_endpoints" cascade;`);
  }

}
