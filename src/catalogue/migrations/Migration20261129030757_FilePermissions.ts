import { Migration } from '@mikro-orm/migrations';

/**
 * What a file asks for beyond its permissions (issue 37, v5 files): manifest v3 host permissions
 * (until now kept among `permissions`) and the data it says it collects, required and optional.
 */
export class Migration20261129030757_FilePermissions extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "files" add column "host_permissions" text[] not null default '{}', add column "data_collection_permissions" text[] not null default '{}', add column "optional_data_collection_permissions" text[] not null default '{}';`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "files" drop column "host_permissions", drop column "data_collection_permissions", drop column "optional_data_collection_permissions";`);
  }

}
