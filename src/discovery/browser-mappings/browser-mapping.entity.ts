import { Entity, ManyToOne, PrimaryKey, Property, Unique, type Opt } from '@mikro-orm/core';
import { Addon } from '../../catalogue/addon.entity.js';

/** Browsers whose extensions map to add-ons here (the original's list: Chrome alone). */
export enum Browser {
  CHROME = 1,
}

/** The `browser` parameter's names. */
export const BROWSER_NAMES: Readonly<Record<Browser, string>> = { [Browser.CHROME]: 'chrome' };

/**
 * An extension of another browser and the add-on that replaces it here (the original's browser
 * mappings): the browser's "import extensions from Chrome" reads them.
 */
@Entity({ tableName: 'addon_browser_mappings' })
@Unique({ properties: ['browser', 'extensionId'] })
export class AddonBrowserMapping {
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @ManyToOne({ entity: () => Addon, deleteRule: 'cascade', index: true })
  addon!: Addon;

  @Property({ type: 'smallint' })
  browser!: Browser;

  @Property({ type: 'string', length: 255 })
  extensionId!: string;

  @Property({ type: 'timestamptz', defaultRaw: 'now()' })
  created: Opt<Date> = new Date();

  @Property({ type: 'timestamptz', defaultRaw: 'now()', onUpdate: () => new Date() })
  modified: Opt<Date> = new Date();
}
