import { SINCE_V4, type ApiVersion } from '../gates.js';
import {
  parseDetailParams,
  parseFlagBody,
  parseListParams,
  parseRatingBody,
  parseRatingId,
  parseReplyBody,
} from '../params/ratings.js';
import { paginated, pageVariables } from '../pagination.js';
import { defineRoutes, gql, type RestRequest, type RouteDefinition } from '../route.js';
import { ratingCoreFields, ratingFields, shapeRating, shapeReply } from '../shapes/ratings.js';
import type {
  RestCreateRatingMutation,
  RestRatingQuery,
  RestRatingsQuery,
  RestReplyToRatingMutation,
  RestUpdateRatingMutation,
} from '../generated/operations.js';

/** The original's answer to a flag (the contract's "object with msg"). */
const FLAGGED = { msg: 'Thanks; this review has been flagged for reviewer approval.' };

const id = (req: RestRequest) => parseRatingId(req.params.id);
/** The score's wire name in field errors: `rating` under the rating shim (the domain's is `score`). */
const scoreErrorField = (req: RestRequest) => (req.gate('ratings-rating-shim') ? { score: 'rating' } : undefined);

/** Ratings since v4, reviews in v3: the same endpoints under another base path. */
function ratingRoutes(versions: readonly ApiVersion[], base: string): RouteDefinition[] {
  return [
    {
      method: 'GET',
      path: base,
      versions,
      // An add-on's ratings, for anonymous callers: cached under the add-on's ratings tag (r:<id>),
      // its own (a:<id>) and the writers' (u:<id>). Lists by user are not (no tag covers them).
      cache: (req) => (req.query.get('addon') !== null && req.query.get('user') === null ? 'anonymous' : false),
      document: gql`
        query RestRatings(
          $addon: String
          $user: Int
          $version: Int
          $withDeleted: Boolean
          $withoutEmptyBody: Boolean
          $withYours: Boolean
          $excludeRatings: [Int!]
          $scores: [Int!]
          $showPermissionsFor: Int
          $showFlagsFor: Int
          $page: Int
          $pageSize: Int
          $withFlags: Boolean!
          $withGrouped: Boolean!
          $withCanReply: Boolean!
        ) {
          ratings(
            addon: $addon
            user: $user
            version: $version
            withDeleted: $withDeleted
            withoutEmptyBody: $withoutEmptyBody
            withYours: $withYours
            excludeRatings: $excludeRatings
            scores: $scores
            showPermissionsFor: $showPermissionsFor
            showFlagsFor: $showFlagsFor
            page: $page
            pageSize: $pageSize
          ) {
            count
            page
            pageSize
            pageCount
            items {
              ...RestRatingFields
            }
            groupedRatings @include(if: $withGrouped) {
              score
              count
            }
            canReply @include(if: $withCanReply)
          }
        }
        ${ratingFields}
      `,
      variables: (req) => {
        const { showGroupedRatings, ...params } = parseListParams(req.query, req.version);
        return {
          ...params,
          ...pageVariables(req),
          withFlags: params.showFlagsFor !== null,
          withGrouped: showGroupedRatings && Boolean(params.addon),
          withCanReply: params.showPermissionsFor !== null,
        };
      },
      shape: (data: RestRatingsQuery, ctx) => {
        const { groupedRatings, canReply } = data.ratings;
        return {
          ...paginated(data.ratings, ctx, (r) => shapeRating(r, ctx)),
          ...(groupedRatings
            ? { grouped_ratings: Object.fromEntries(groupedRatings.map((g) => [g.score, g.count])) }
            : {}),
          ...(canReply !== undefined && canReply !== null ? { can_reply: canReply } : {}),
        };
      },
    },
    {
      method: 'GET',
      path: `${base}<id>/`,
      versions,
      document: gql`
        query RestRating($id: Int!, $showFlagsFor: Int, $withFlags: Boolean!) {
          rating(id: $id, showFlagsFor: $showFlagsFor) {
            ...RestRatingFields
          }
        }
        ${ratingFields}
      `,
      variables: (req) => {
        const { showFlagsFor } = parseDetailParams(req.query, req.version);
        return { id: id(req), showFlagsFor, withFlags: showFlagsFor !== null };
      },
      shape: (data: RestRatingQuery, ctx) => shapeRating(data.rating, ctx),
    },
    {
      method: 'POST',
      path: base,
      versions,
      document: gql`
        mutation RestCreateRating($input: RatingInput!, $withFlags: Boolean! = false) {
          createRating(input: $input) {
            ...RestRatingFields
          }
        }
        ${ratingFields}
      `,
      variables: (req) => ({ input: parseRatingBody(req.body, req.version) }),
      errorFields: scoreErrorField,
      status: 201,
      shape: (data: RestCreateRatingMutation, ctx) => shapeRating(data.createRating, ctx),
    },
    {
      method: 'PATCH',
      path: `${base}<id>/`,
      versions,
      document: gql`
        mutation RestUpdateRating($id: Int!, $input: RatingInput!, $withFlags: Boolean! = false) {
          updateRating(id: $id, input: $input) {
            ...RestRatingFields
          }
        }
        ${ratingFields}
      `,
      variables: (req) => ({ id: id(req), input: parseRatingBody(req.body, req.version) }),
      errorFields: scoreErrorField,
      // A reply is changed through the reply serializer: it answers as a reply.
      shape: (data: RestUpdateRatingMutation, ctx) =>
        data.updateRating.isDeveloperReply ? shapeReply(data.updateRating, ctx) : shapeRating(data.updateRating, ctx),
    },
    {
      method: 'DELETE',
      path: `${base}<id>/`,
      versions,
      document: gql`
        mutation RestDeleteRating($id: Int!) {
          deleteRating(id: $id)
        }
      `,
      variables: (req) => ({ id: id(req) }),
      status: 204,
      shape: () => null,
    },
    {
      method: 'POST',
      path: `${base}<id>/reply/`,
      versions,
      document: gql`
        mutation RestReplyToRating($id: Int!, $body: String, $withFlags: Boolean! = false) {
          replyToRating(id: $id, body: $body) {
            created
            reply {
              ...RestRatingCoreFields
            }
          }
        }
        ${ratingCoreFields}
      `,
      variables: (req) => ({ id: id(req), ...parseReplyBody(req.body) }),
      status: (data: RestReplyToRatingMutation) => (data.replyToRating.created ? 201 : 200),
      shape: (data: RestReplyToRatingMutation, ctx) => shapeReply(data.replyToRating.reply, ctx),
    },
    {
      method: 'POST',
      path: `${base}<id>/flag/`,
      versions,
      document: gql`
        mutation RestFlagRating($id: Int!, $flag: String, $note: String) {
          flagRating(id: $id, flag: $flag, note: $note) {
            flag
          }
        }
      `,
      variables: (req) => ({ id: id(req), ...parseFlagBody(req.body) }),
      status: 202,
      shape: () => FLAGGED,
    },
  ];
}

export const ratingsRoutes = defineRoutes([
  ...ratingRoutes(SINCE_V4, '/ratings/rating/'),
  ...ratingRoutes(['v3'], '/reviews/review/'),
]);
