import { Permission } from '../../access/permissions.js';
import type { RequestContext } from '../../core/context.js';
import { errors } from '../../core/errors.js';
import { authorRole, existingAddon } from '../addon-access.js';
import { AddonStatus } from '../catalogue.enums.js';
import type { CatalogueService } from '../catalogue.service.js';
import { Version } from '../version.entity.js';
import type { AddonLifecycle } from './lifecycle.service.js';
import type { AddonState } from './lifecycle.state.js';

/** A version named by its id, or by its version string (v5 paths take either). */
export type VersionRef = { id: number; number?: null } | { id?: null; number: string };

/**
 * A developer deletes a version (`deleteAddonVersion`, REST v5 `DELETE …/versions/<id>/`): the
 * lifecycle's `deleteVersion` (owners or `Addons:Edit`; the version soft-deleted, its files
 * disabled, the add-on's status derived again). Before it, what v5 adds: the version by its
 * number as well as its id, and the original's refusal of an add-on disabled by an administrator
 * to its own authors (403 with the add-on's disabled flags, as its add-on child endpoints answer).
 */
export async function deleteVersionByRef(
  ctx: RequestContext,
  catalogue: CatalogueService,
  lifecycle: AddonLifecycle,
  identifier: string,
  ref: VersionRef,
): Promise<AddonState> {
  if (!ctx.viewer.isAuthenticated) throw errors.notAuthenticated();
  const addon = existingAddon(ctx, await catalogue.lookup(ctx, identifier), 'nobody');
  if (
    addon.status === AddonStatus.DISABLED &&
    !ctx.viewer.can(Permission.ADDONS_EDIT) &&
    (await authorRole(ctx, addon.id)) !== null
  ) {
    throw errors.forbidden(undefined, { is_disabled_by_developer: addon.disabledByUser, is_disabled_by_vendor: true });
  }
  let versionId = ref.id ?? null;
  if (versionId === null) {
    const found = await ctx.em.findOne(Version, { addon: addon.id, version: ref.number ?? '' }, { fields: ['id'] });
    // Unknown numbers go on as an id no version has: the lifecycle answers them after its permission checks.
    versionId = found?.id ?? 0;
  }
  return lifecycle.deleteVersion(ctx, String(addon.id), versionId);
}
