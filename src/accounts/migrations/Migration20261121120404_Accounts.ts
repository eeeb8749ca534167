import { Migration } from '@mikro-orm/migrations';

export class Migration20261121120404_Accounts extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "user_notifications" ("id" serial primary key, "user_id" int not null, "name" varchar(50) not null, "enabled" boolean not null);`);
    this.addSql(`alter table "user_notifications" add constraint "user_notifications_user_id_name_unique" unique ("user_id", "name");`);

    this.addSql(`alter table "user_notifications" add constraint "user_notifications_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "users" add column "idp_id" varchar(255) null, add column "picture_type" varchar(25) null, add column "picture_hash" varchar(8) null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "user_notifications" cascade;`);

    this.addSql(`alter table "users" drop column "idp_id", drop column "picture_type", drop column "picture_hash";`);
  }

}
