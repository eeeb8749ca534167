import { Migration } from '@mikro-orm/migrations';

/**
 * Browser sign-in (issue 36): attempts at OpenID Connect providers, the identities accounts sign in
 * with (kept when an account is deleted, so that it is not signed in to again), one-time links, and
 * what a session records (last use for the idle lifetime, its second factor, how it began).
 */
export class Migration20261129021348_Signin extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "signin_attempts" ("state" varchar(64) not null, "provider" varchar(64) not null, "binding_hash" varchar(64) not null, "nonce" varchar(128) not null, "code_verifier" varchar(128) not null, "return_to" text not null, "second_factor" boolean not null default false, "expires_at" timestamptz not null, constraint "signin_attempts_pkey" primary key ("state"));`);
    this.addSql(`create index "signin_attempts_expires_at_index" on "signin_attempts" ("expires_at");`);

    this.addSql(`create table "signin_links" ("id" uuid not null, "email" varchar(255) not null, "return_to" text not null, "created" timestamptz not null default now(), "expires_at" timestamptz not null, "used_at" timestamptz null, constraint "signin_links_pkey" primary key ("id"));`);
    this.addSql(`create index "signin_links_expires_at_index" on "signin_links" ("expires_at");`);

    this.addSql(`create table "user_identities" ("id" serial primary key, "user_id" int null, "provider" varchar(64) not null, "subject" varchar(255) not null, "created" timestamptz not null default now(), "last_sign_in" timestamptz null);`);
    this.addSql(`create index "user_identities_user_id_index" on "user_identities" ("user_id");`);
    this.addSql(`alter table "user_identities" add constraint "user_identities_provider_subject_unique" unique ("provider", "subject");`);

    this.addSql(`alter table "user_identities" add constraint "user_identities_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete set null;`);

    this.addSql(`alter table "sessions" add column "last_used" timestamptz not null default now(), add column "second_factor" boolean not null default false, add column "origin" varchar(64) null, add column "user_agent" varchar(255) null, add column "ip" varchar(45) null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "signin_attempts" cascade;`);

    this.addSql(`drop table if exists "signin_links" cascade;`);

    this.addSql(`drop table if exists "user_identities" cascade;`);

    this.addSql(`alter table "sessions" drop column "last_used", drop column "second_factor", drop column "origin", drop column "user_agent", drop column "ip";`);
  }

}
