import { Migration } from '@mikro-orm/migrations';

/**
 * Webhook back-off (issue 35): an endpoint whose attempt failed is not attempted again before
 * `backoff_until`, so that a receiver that never answers holds a sending slot for one timeout per
 * back-off instead of one per waiting delivery.
 */
export class Migration20261129020000_WebhookBackoff extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "webhook_endpoints" add column "backoff_until" timestamptz null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "webhook_endpoints" drop column "backoff_until";`);
  }
}
