import type { EntityManager } from '@mikro-orm/postgresql';
import { errors } from '../../core/errors.js';
import { FileStatus } from '../catalogue.enums.js';
import { AddonFile, type Version } from '../version.entity.js';
import { ActivityAction } from './lifecycle.enums.js';
import type { Change } from './lifecycle.service.js';

/** Why a file is disabled (`files.disabled_reason`): only the developer's own disabling is theirs to undo. */
export const FileDisabledReason = { NONE: 0, DEVELOPER: 1 } as const;

export const versionDisablingMessages = {
  notReenabled: "Can not re-enable a version disabled by the site's administrators.",
};

/** Whether the version reads as disabled by its developer (v5 `is_disabled`). */
export function isDisabledByDeveloper(files: readonly Pick<AddonFile, 'status' | 'disabledReason'>[]): boolean {
  return (
    files.length > 0 &&
    files.every((f) => f.status === FileStatus.DISABLED && f.disabledReason === FileDisabledReason.DEVELOPER)
  );
}

/**
 * A developer disables one version (v5 `is_disabled: true`: its files disabled, the status each had
 * kept) or enables it again (each file back to the status it had). Refused (400, field
 * `is_disabled`) when enabling files that someone else disabled (a reviewer, an administrator, a
 * deletion). Null when nothing would change (idempotent, as the original). The change goes through
 * the lifecycle's one write path, which derives the add-on's status again: disabling its only
 * approved listed version leaves a public add-on without one.
 */
export async function versionDisabling(
  em: EntityManager,
  version: Pick<Version, 'id' | 'version' | 'channel'>,
  disabled: boolean,
  actorId: number,
): Promise<Change | null> {
  const files = await em.find(AddonFile, { version: version.id }, { orderBy: { id: 'asc' } });
  if (
    !disabled &&
    files.some((f) => f.status === FileStatus.DISABLED && f.disabledReason !== FileDisabledReason.DEVELOPER)
  ) {
    throw errors.field('is_disabled', versionDisablingMessages.notReenabled);
  }
  if (isDisabledByDeveloper(files) === disabled) return null;
  return {
    action: disabled ? ActivityAction.VERSION_DISABLED_BY_DEVELOPER : ActivityAction.VERSION_ENABLED_BY_DEVELOPER,
    actorId,
    versionId: version.id,
    details: { version: version.version, channel: version.channel },
    apply: async (_addon, tx) => {
      for (const file of await tx.find(AddonFile, { version: version.id })) {
        if (disabled && file.status !== FileStatus.DISABLED) {
          file.originalStatus = file.status;
          file.status = FileStatus.DISABLED;
          file.disabledReason = FileDisabledReason.DEVELOPER;
        } else if (!disabled && file.disabledReason === FileDisabledReason.DEVELOPER) {
          file.status = file.originalStatus ?? FileStatus.AWAITING_REVIEW;
          file.originalStatus = null;
          file.disabledReason = FileDisabledReason.NONE;
        }
      }
      await tx.flush();
    },
  };
}
