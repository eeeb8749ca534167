import { userName } from './addons.js';
import { RatingFlagReason, ratingFlagConstant } from '../../src/ratings/ratings.enums.js';
import type { RestRatingCoreFieldsFragment, RestRatingFieldsFragment } from '../generated/operations.js';
import { gql, type ShapeContext } from '../route.js';

/**
 * The GraphQL selection behind the v3/v4 reply object (and the rating's common part). Operations
 * using it declare `$withFlags: Boolean!` (v4 `show_flags_for`).
 */
export const ratingCoreFields = gql`
  fragment RestRatingCoreFields on Rating {
    id
    addon: addonSummary {
      id
      slug
      name
      defaultLocale
      iconUrl
    }
    body
    created
    flags @include(if: $withFlags) {
      flag
      note
    }
    isDeleted
    isDeveloperReply
    isLatest
    previousCount
    user: userSummary {
      id
      username
      displayName
      name
    }
  }
`;

/** A rating with its score, version and reply. */
export const ratingFields = gql`
  fragment RestRatingFields on Rating {
    ...RestRatingCoreFields
    score
    version: versionSummary {
      id
      version
    }
    reply {
      ...RestRatingCoreFields
    }
  }
  ${ratingCoreFields}
`;

/** GraphQL enum names of the flag reasons, back to their values. */
const REASONS = Object.fromEntries(Object.entries(RatingFlagReason)) as Record<string, RatingFlagReason>;

/**
 * The fields a rating and a reply share, as the gates say (`ratings-legacy-addon-summary`,
 * `del-ratings-flags`: else `flags` when asked for).
 */
function shapeCore(rating: RestRatingCoreFieldsFragment, ctx: ShapeContext) {
  const legacy = ctx.gate('ratings-legacy-addon-summary');
  const { addon, user } = rating;
  return {
    id: rating.id,
    addon: legacy
      ? { id: addon.id, slug: addon.slug }
      : {
          id: addon.id,
          slug: addon.slug,
          name: ctx.translated(addon.name, addon.defaultLocale),
          icon_url: addon.iconUrl,
        },
    body: rating.body,
    created: ctx.timestamp(rating.created),
    ...(rating.flags && !ctx.gate('del-ratings-flags')
      ? { flags: rating.flags.map((f) => ({ flag: ratingFlagConstant(REASONS[f.flag]), note: f.note })) }
      : {}),
    ...(legacy ? {} : { is_deleted: rating.isDeleted }),
    is_developer_reply: rating.isDeveloperReply,
    is_latest: rating.isLatest,
    previous_count: rating.previousCount,
    user: {
      id: user.id,
      name: userName(user, ctx),
      url: ctx.absolute(`/user/${user.id}/`),
      username: user.username,
    },
  };
}

/** A reply: the rating object without score, reply and version. */
export function shapeReply(reply: RestRatingCoreFieldsFragment, ctx: ShapeContext) {
  return { ...shapeCore(reply, ctx), ...(ctx.gate('ratings-title-shim') ? { title: null } : {}) };
}

/** The rating object; `ratings-rating-shim` calls the score `rating`. */
export function shapeRating(rating: RestRatingFieldsFragment, ctx: ShapeContext) {
  const version = rating.version ? { id: rating.version.id, version: rating.version.version } : null;
  const reply = rating.reply ? shapeReply(rating.reply, ctx) : null;
  if (ctx.gate('ratings-rating-shim')) {
    return {
      ...shapeCore(rating, ctx),
      reply,
      version,
      rating: rating.score,
      ...(ctx.gate('ratings-title-shim') ? { title: null } : {}),
    };
  }
  return { ...shapeCore(rating, ctx), score: rating.score, reply, version };
}
