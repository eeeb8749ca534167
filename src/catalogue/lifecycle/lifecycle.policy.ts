import { AddonRole, type Addon } from '../addon.entity.js';
import { authorRole, existingAddon } from '../addon-access.js';
import type { CatalogueService } from '../catalogue.service.js';
import type { RequestContext } from '../../core/context.js';
import { errors } from '../../core/errors.js';
import { lengthProblem } from '../../core/text-limits.js';
import { lifecycleErrors } from './lifecycle.rules.js';
import { Permission } from '../../auth/permissions.js';

/**
 * Who may run which lifecycle operation: owners (developers' operations), `Addons:Edit` (deletions
 * too), `Reviews:Admin` (vendor disable, resubmission), `Admin:Curation` (promotions). Anonymous
 * callers get 401, others 403, unknown or deleted add-ons 404.
 */
export class LifecyclePolicy {
  constructor(private readonly catalogue: CatalogueService) {}

  /** A non-deleted add-on by id, slug or guid. */
  async existing(ctx: RequestContext, identifier: string): Promise<Addon> {
    return existingAddon(ctx, await this.catalogue.lookup(ctx, identifier), 'nobody');
  }

  /** Owners of the add-on (and, where `admins`, `Addons:Edit`); 401 anonymous, 403 others, 404 unknown. */
  async owned(ctx: RequestContext, identifier: string, admins: boolean): Promise<Addon> {
    if (!ctx.viewer.isAuthenticated) throw errors.notAuthenticated();
    const addon = await this.existing(ctx, identifier);
    if (admins && ctx.viewer.can(Permission.ADDONS_EDIT)) return addon;
    const role = await authorRole(ctx, addon.id);
    if (role === null) throw errors.forbidden();
    if (role !== AddonRole.OWNER) throw lifecycleErrors.notOwner();
    return addon;
  }

  /** `Reviews:Admin`, checked before the add-on is looked up (as the original's permission classes). */
  async administered(ctx: RequestContext, identifier: string): Promise<Addon> {
    if (!ctx.viewer.isAuthenticated) throw errors.notAuthenticated();
    if (!ctx.viewer.can(Permission.REVIEWS_ADMIN)) throw errors.forbidden();
    return this.existing(ctx, identifier);
  }

  /** A comment or reason, within its length limit (`field` names it in the 400). */
  comments(text: string | null, field: string): string {
    const problem = lengthProblem(text, 'lifecycleComment');
    if (problem) throw errors.validation({ [field]: [problem] });
    return (text ?? '').trim();
  }
}
