import type { RequestViewer } from '../core/context.js';
import { Permission } from '../access/permissions.js';

/** Any kind of reviewer of listed content. */
export const LISTED_REVIEWER_PERMISSIONS = [
  Permission.ADDONS_REVIEW,
  Permission.ADDONS_CONTENT_REVIEW,
  Permission.ADDONS_POST_REVIEW,
  Permission.ADDONS_THEME_REVIEW,
  Permission.REVIEWER_TOOLS_VIEW,
] as const;

export const isListedReviewer = (viewer: RequestViewer) => LISTED_REVIEWER_PERMISSIONS.some((p) => viewer.can(p));
export const isUnlistedReviewer = (viewer: RequestViewer) => viewer.can(Permission.ADDONS_REVIEW_UNLISTED);
export const canViewDeleted = (viewer: RequestViewer) => viewer.can(Permission.ADDONS_VIEW_DELETED);
