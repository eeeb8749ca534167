import { errors, type FieldErrors } from '../core/errors.js';

/** The ratings' own messages, exactly as the original words them. */
export const ratingMessages = {
  needAddonOrUser: 'Need an addon or user parameter',
  showPermissionsNeedsAddon: 'show_permissions_for parameter is only valid if the addon parameter is also present',
  showPermissionsForOther:
    'show_permissions_for parameter value should be equal to the user id of the authenticated user',
  showFlagsForOther: 'show_flags_for parameter value should be equal to the user id of the authenticated user',
  userNotInteger: 'user parameter should be an integer.',
  versionNotInteger: 'version parameter should be an integer.',
  scoreNotIntegers: 'score parameter should be an integer or a list of integers (separated by a comma).',
  excludeNotIntegers: 'exclude_ratings parameter should be an integer or a list of integers (separated by a comma).',
  groupedNotBoolean: 'show_grouped_ratings parameter should be a boolean',
  versionNotPublic: "This version of the add-on doesn't exist or isn't public.",
  ownAddon: "You can't leave a review on your own add-on.",
  onePerVersion: "You can't leave more than one review for the same version of an add-on.",
  versionChange: "You can't change the version of the add-on reviewed once the review has been created.",
  addonChange: "You can't change the add-on of a review once it has been created.",
  replyToReply: "You can't reply to a review that is already a reply.",
  flagWithoutBody: "This rating can't be flagged because it has no review text.",
  flagNoteRequired: 'A short explanation must be provided when selecting "Other" as a flag reason.',
};

export const ratingErrors = {
  /** A query parameter the original refuses with a ParseError: 400 `{"detail": …}`. */
  parameter: (message: string) => errors.badRequest(message),
  fields: (fields: FieldErrors) => errors.validation(fields),
  nonField: (message: string) => errors.validation({ non_field_errors: [message] }),
  /** 429 with `Retry-After`; `wait` is in whole seconds (rounded up, as the original). */
  throttled: errors.throttled,
};
