import { Migration } from '@mikro-orm/migrations';

/**
 * A trusted-publishing key records every publisher whose match issued it (`trusted_publisher_ids`,
 * was one `trusted_publisher_id`), so that removing any of them revokes it.
 */
export class Migration20261128130300_TrustedPublishingAddon extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "api_keys" add column "trusted_publisher_ids" int[] null;`);
    this.addSql(
      `update "api_keys" set "trusted_publisher_ids" = array["trusted_publisher_id"] where "trusted_publisher_id" is not null;`,
    );
    this.addSql(`alter table "api_keys" drop column "trusted_publisher_id";`);
    this.addSql(
      `create index "api_keys_trusted_publishers" on "api_keys" using gin ("trusted_publisher_ids") where "is_active";`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists "api_keys_trusted_publishers";`);
    this.addSql(`alter table "api_keys" add column "trusted_publisher_id" int null;`);
    this.addSql(
      `update "api_keys" set "trusted_publisher_id" = "trusted_publisher_ids"[1] where "trusted_publisher_ids" is not null;`,
    );
    this.addSql(`alter table "api_keys" drop column "trusted_publisher_ids";`);
  }
}
