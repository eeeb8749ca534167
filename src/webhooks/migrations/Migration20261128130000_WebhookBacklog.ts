import { Migration } from '@mikro-orm/migrations';

/**
 * Webhook backlog (issue 35): each endpoint's deliveries are sent by one runner at a time (a lease
 * on the endpoint), an endpoint that keeps failing is suspended, and the runner finds its next
 * delivery through two partial indexes (the untried ones in order, the retries by time).
 */
export class Migration20261128130000_WebhookBacklog extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table "webhook_endpoints" add column "consecutive_failures" int not null default 0, add column "suspended_at" timestamptz null, add column "suspended_reason" varchar(255) null, add column "send_lease_until" timestamptz null, add column "send_lease_owner" varchar(64) null;`,
    );
    this.addSql(
      `create index "webhook_deliveries_untried" on "webhook_deliveries" ("endpoint_id", "occurred_at", "rank", "id") where "status" = 'pending';`,
    );
    this.addSql(
      `create index "webhook_deliveries_retries" on "webhook_deliveries" ("endpoint_id", "next_attempt_at") where "status" = 'failed';`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists "webhook_deliveries_retries";`);
    this.addSql(`drop index if exists "webhook_deliveries_untried";`);
    this.addSql(
      `alter table "webhook_endpoints" drop column "consecutive_failures", drop column "suspended_at", drop column "suspended_reason", drop column "send_lease_until", drop column "send_lease_owner";`,
    );
  }
}
