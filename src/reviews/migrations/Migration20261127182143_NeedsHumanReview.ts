import { Migration } from '@mikro-orm/migrations';

/** Why versions wait for a human, with the review's due date (src/reviews/human-review.ts). */
export class Migration20261127182143_NeedsHumanReview extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "needs_human_review" ("id" serial primary key, "version_id" int not null, "reason" varchar(40) not null, "details" jsonb null, "due_date" timestamptz not null, "is_active" boolean not null default true, "created" timestamptz not null default now());`);
    this.addSql(`create index "needs_human_review_version_id_is_active_index" on "needs_human_review" ("version_id", "is_active");`);

    this.addSql(`alter table "needs_human_review" add constraint "needs_human_review_version_id_foreign" foreign key ("version_id") references "versions" ("id") on update cascade on delete cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "needs_human_review" cascade;`);
  }

}
