import type { Viewer } from '../auth/viewer.js';

/** Any kind of reviewer of listed content. */
export const LISTED_REVIEWER_PERMISSIONS = [
  'Addons:Review',
  'Addons:ContentReview',
  'Addons:PostReview',
  'Addons:ThemeReview',
  'ReviewerTools:View',
] as const;

export const isListedReviewer = (viewer: Viewer) => LISTED_REVIEWER_PERMISSIONS.some((p) => viewer.can(p));
export const isUnlistedReviewer = (viewer: Viewer) => viewer.can('Addons:ReviewUnlisted');
export const canViewDeleted = (viewer: Viewer) => viewer.can('Addons:ViewDeleted');
