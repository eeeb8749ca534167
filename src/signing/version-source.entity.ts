import { BigIntType, Entity, ManyToOne, PrimaryKeyProp, Property, type Opt } from '@mikro-orm/core';
import { User } from '../accounts/user.entity.js';
import { Version } from '../catalogue/version.entity.js';

/**
 * A version's source code archive (the original's `Version.source`): at most one per version, its
 * bytes in the private file storage under `storageKey`. Replacing the source replaces the row and
 * the stored file. Written only by `VersionSourceService`.
 */
@Entity({ tableName: 'version_sources' })
export class VersionSource {
  [PrimaryKeyProp]?: 'version';

  @ManyToOne({ entity: () => Version, primary: true, deleteRule: 'cascade' })
  version!: Version;

  /** Where the archive is in the private file storage (`version_source/…`). */
  @Property({ type: 'string', length: 255 })
  storageKey!: string;

  /** The download's file name (`<slug>-<version>-src<ext>`). */
  @Property({ type: 'string', length: 255 })
  filename!: string;

  @Property({ type: new BigIntType('number') })
  size!: number;

  /** Who attached it (null once the account is deleted). */
  @ManyToOne({ entity: () => User, nullable: true, deleteRule: 'set null' })
  uploadedBy: User | null = null;

  @Property({ type: 'timestamptz', defaultRaw: 'now()' })
  created: Opt<Date> = new Date();
}
