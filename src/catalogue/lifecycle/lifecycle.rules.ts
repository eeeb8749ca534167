import { errors } from '../../core/errors.js';
import { AddonStatus } from '../catalogue.enums.js';

/** What an add-on's listed versions hold, for `derivedStatus`. */
export interface ListedFacts {
  /** A non-deleted listed version has an approved file. */
  approved: boolean;
  /** A non-deleted listed version has a file awaiting review. */
  awaiting: boolean;
}

/** The statuses the lifecycle derives from versions; older ones (lite, unreviewed…) stay as they are. */
const DERIVED: ReadonlySet<AddonStatus> = new Set([AddonStatus.INCOMPLETE, AddonStatus.NOMINATED, AddonStatus.PUBLIC]);

/**
 * The status an add-on's listed versions give it (the original's `update_status`): public with an
 * approved listed version, awaiting review (nominated) with one waiting for a reviewer, otherwise
 * incomplete. Deleted and vendor-disabled add-ons keep their status until an admin enables them.
 */
export function derivedStatus(current: AddonStatus, facts: ListedFacts): AddonStatus {
  if (!DERIVED.has(current)) return current;
  if (facts.approved) return AddonStatus.PUBLIC;
  if (facts.awaiting) return AddonStatus.NOMINATED;
  return AddonStatus.INCOMPLETE;
}

/** The lifecycle's refusals (GraphQL codes; REST maps them in rest-compat/errors.ts). */
export const lifecycleErrors = {
  notOwner: () => errors.forbidden('Only owners of the add-on can do this.'),
  disabledByVendor: () =>
    errors.conflict('This add-on has been disabled by an administrator: only an administrator can enable it.'),
  noGuid: () => errors.conflict('This add-on has no add-on ID to deny or allow.'),
  alreadyDenied: () => errors.conflict('Resubmission of this add-on ID is already denied.'),
  notDenied: () => errors.conflict('Resubmission of this add-on ID is not denied.'),
  versionDeleted: () => errors.notFound(),
  noApps: () => errors.validation({ apps: ['Choose at least one application.'] }),
};
