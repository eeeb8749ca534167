import { Migration } from '@mikro-orm/migrations';

/** Abuse reports of ratings and collections, and the DSA fields (issue 37). */
export class Migration20261129030100_AbuseV5 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table "abuse_reports" add column "rating_id" int null, add column "collection_id" int null, add column "reporter_name" varchar(255) null, add column "reporter_email" varchar(255) null, add column "location" varchar(16) null, add column "illegal_category" varchar(64) null, add column "illegal_subcategory" varchar(64) null;`,
    );
    this.addSql(`create index "abuse_reports_rating_id_index" on "abuse_reports" ("rating_id");`);
    this.addSql(`create index "abuse_reports_collection_id_index" on "abuse_reports" ("collection_id");`);
    this.addSql(
      `alter table "abuse_reports" add constraint "abuse_reports_rating_id_foreign" foreign key ("rating_id") references "ratings" ("id") on update cascade on delete set null;`,
    );
    this.addSql(
      `alter table "abuse_reports" add constraint "abuse_reports_collection_id_foreign" foreign key ("collection_id") references "collections" ("id") on update cascade on delete set null;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(
      `alter table "abuse_reports" drop column "rating_id", drop column "collection_id", drop column "reporter_name", drop column "reporter_email", drop column "location", drop column "illegal_category", drop column "illegal_subcategory";`,
    );
  }
}
