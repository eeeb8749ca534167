import { Migration } from '@mikro-orm/migrations';

/** Where each add-on's listing stands with content reviewers (issue 37: the original's listing content review). */
export class Migration20261129064529_ListingContentReview extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "addon_listing_reviews" ("addon_id" int not null, "status" smallint not null default 0, "last_reviewed" timestamptz null, "requested_at" timestamptz null, constraint "addon_listing_reviews_pkey" primary key ("addon_id"));`);
    this.addSql(`create index "addon_listing_reviews_status_requested_at_index" on "addon_listing_reviews" ("status", "requested_at");`);

    this.addSql(`alter table "addon_listing_reviews" add constraint "addon_listing_reviews_addon_id_foreign" foreign key ("addon_id") references "addons" ("id") on update cascade on delete cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "addon_listing_reviews" cascade;`);
  }

}
