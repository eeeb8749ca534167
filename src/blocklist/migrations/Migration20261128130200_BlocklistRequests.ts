import { Migration } from '@mikro-orm/migrations';

/**
 * Blocklist publication requests kept in the database (`BlocklistRequests`), not in job payloads: a
 * request counter and the request number of a pending rebuild, read and settled by the publisher.
 */
export class Migration20261128130200_BlocklistRequests extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "blocklist_requests" ("id" int not null, "requested" bigint not null default 0, "rebuild_requested" bigint null, constraint "blocklist_requests_pkey" primary key ("id"));`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "blocklist_requests" cascade;`);
  }
}
