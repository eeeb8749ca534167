import { Migration } from '@mikro-orm/migrations';

export class Migration20261125144235_DraftComments extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "canned_responses" ("id" serial primary key, "title" varchar(255) not null, "response" text not null, "category" varchar(100) not null default 'Other', "created" timestamptz not null default now());`);

    this.addSql(`create table "review_draft_comments" ("id" serial primary key, "version_id" int not null, "user_id" int not null, "comment" text not null default '', "filename" varchar(1000) null, "lineno" int null, "canned_response_id" int null, "created" timestamptz not null default now());`);
    this.addSql(`create index "review_draft_comments_version_id_user_id_index" on "review_draft_comments" ("version_id", "user_id");`);

    this.addSql(`alter table "review_draft_comments" add constraint "review_draft_comments_version_id_foreign" foreign key ("version_id") references "versions" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "review_draft_comments" add constraint "review_draft_comments_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "review_draft_comments" add constraint "review_draft_comments_canned_response_id_foreign" foreign key ("canned_response_id") references "canned_responses" ("id") on update cascade on delete set null;`);

    // Defaults reviewers use every day; review admins edit them through GraphQL.
    const defaults: [string, string, string][] = [
      ['Security', 'Remote code execution', 'Your add-on loads and runs code from a remote location (for example with eval(), new Function() or a remote script). Add-ons must ship all the code they run in their package.'],
      ['Security', 'Unsafe assignment to innerHTML', 'Your add-on assigns unsanitized, possibly remote content to innerHTML or a similar property. Build the elements with the DOM API (createElement, textContent) or sanitize the content first.'],
      ['Development practice', 'Minified code without sources', 'Your add-on contains minified, concatenated or otherwise machine-generated code. Please upload the original sources and the instructions to build the package from them.'],
      ['Development practice', 'Unused permissions', 'Your add-on requests permissions it does not use. Please remove them from the manifest, so users are asked only for what the add-on needs.'],
      ['Privacy', 'Data collection without consent', 'Your add-on collects or transmits user data without asking first. Show a consent prompt before collecting anything, and describe what is collected in a privacy policy.'],
      ['Privacy', 'Missing privacy policy', 'Your add-on transmits user data but has no privacy policy. Please add one to the listing that says what is collected, why, and with whom it is shared.'],
      ['Other', 'Listing needs more information', 'The listing does not explain what the add-on does. Please describe its features in the summary and description, so users know what they install.'],
      ['Other', 'Approved, thank you', 'Thank you for your add-on. It has been approved.'],
    ];
    for (const [category, title, response] of defaults) {
      this.addSql(`insert into "canned_responses" ("category", "title", "response") values ('${category}', '${title}', '${response.replace(/'/g, "''")}');`);
    }
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "review_draft_comments" drop constraint "review_draft_comments_canned_response_id_foreign";`);

    this.addSql(`drop table if exists "canned_responses" cascade;`);

    this.addSql(`drop table if exists "review_draft_comments" cascade;`);
  }

}
