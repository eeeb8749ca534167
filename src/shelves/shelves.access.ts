import { defineObjectRule } from '../access/object-rules.js';
import { Permission } from '../access/permissions.js';
import type { RequestContext } from '../core/context.js';
import { errors } from '../core/errors.js';

/**
 * Disabled shelves (`all`) are listed for `Admin:Curation` only (401 anonymous, 403 others);
 * enabled ones for anyone. Curating them is `Admin:Curation`, declared by those operations.
 */
export const listShelves = defineObjectRule(
  'shelf.list',
  'Admin:Curation with `all` (disabled shelves too); anyone otherwise',
  (ctx: RequestContext, all: boolean): void => {
    if (!all) return;
    if (!ctx.viewer.isAuthenticated) throw errors.notAuthenticated();
    if (!ctx.viewer.can(Permission.ADMIN_CURATION)) throw errors.forbidden();
  },
);
