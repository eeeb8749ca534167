import { Migration } from '@mikro-orm/migrations';

export class Migration20261127221514_ScopedApiKeys extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table "api_keys" add column "kind" varchar(20) not null default 'default', add column "name" varchar(100) null, add column "scope_addon_ids" int[] null, add column "scope_operations" text[] null, add column "expires_at" timestamptz null, add column "last_used_at" timestamptz null, add column "trusted_publisher_id" int null;`,
    );
    this.addSql(`drop index if exists "api_keys_one_active_per_user";`);
    this.addSql(
      `create unique index "api_keys_one_active_per_user" on "api_keys" ("user_id") where "is_active" and "kind" = 'default';`,
    );
    this.addSql(`create index "api_keys_user_active" on "api_keys" ("user_id") where "is_active";`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists "api_keys_user_active";`);
    this.addSql(`delete from "api_keys" where "kind" <> 'default';`);
    this.addSql(`drop index if exists "api_keys_one_active_per_user";`);
    this.addSql(
      `create unique index "api_keys_one_active_per_user" on "api_keys" ("user_id") where "is_active";`,
    );
    this.addSql(
      `alter table "api_keys" drop column "kind", drop column "name", drop column "scope_addon_ids", drop column "scope_operations", drop column "expires_at", drop column "last_used_at", drop column "trusted_publisher_id";`,
    );
  }
}
