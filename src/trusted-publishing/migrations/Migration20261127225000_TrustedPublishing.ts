import { Migration } from '@mikro-orm/migrations';

/** Trusted publishing: the publishers add-on owners trust, and the OIDC tokens already exchanged. */
export class Migration20261127225000_TrustedPublishing extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "trusted_publishers" ("id" serial primary key, "addon_id" int not null, "user_id" int not null, "issuer" varchar(255) not null, "audience" varchar(255) not null, "required_claims" jsonb not null, "is_active" boolean not null default true, "created" timestamptz not null default now(), "last_used_at" timestamptz null);`);
    this.addSql(`create index "trusted_publishers_active_issuer" on "trusted_publishers" ("issuer") where "is_active";`);
    this.addSql(`alter table "trusted_publishers" add constraint "trusted_publishers_addon_id_foreign" foreign key ("addon_id") references "addons" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "trusted_publishers" add constraint "trusted_publishers_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);

    this.addSql(`create table "trusted_publishing_tokens" ("digest" varchar(64) not null, "expires_at" timestamptz not null, constraint "trusted_publishing_tokens_pkey" primary key ("digest"));`);
    this.addSql(`create index "trusted_publishing_tokens_expires_at_index" on "trusted_publishing_tokens" ("expires_at");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "trusted_publishing_tokens" cascade;`);
    this.addSql(`drop table if exists "trusted_publishers" cascade;`);
  }

}
