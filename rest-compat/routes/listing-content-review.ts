import { errors } from '../../src/core/errors.js';
import type {
  RestListingContentReviewFieldsFragment,
  RestListingContentReviewQuery,
  RestRequestListingContentReviewMutation,
} from '../generated/operations.js';
import { defineRoutes, gql, type RestRequest } from '../route.js';

const fields = gql`
  fragment RestListingContentReviewFields on ListingContentReview {
    isRejected
    canRequestReview
    hasRequestedReview
    policies
    comments
  }
`;

/** The original's object: the five documented fields (the history is GraphQL's). */
function shape(r: RestListingContentReviewFieldsFragment) {
  return {
    is_rejected: r.isRejected,
    can_request_review: r.canRequestReview,
    has_requested_review: r.hasRequestedReview,
    policies: r.policies,
    comments: r.comments,
  };
}

/** PATCH body: `has_requested_review`, a required boolean. */
function requestVariables(req: RestRequest) {
  const body = (req.body ?? {}) as Record<string, unknown>;
  if (typeof body !== 'object' || Array.isArray(body)) throw errors.badRequest('Invalid data.');
  const value = body.has_requested_review;
  if (value === undefined) throw errors.field('has_requested_review', 'This field is required.');
  if (typeof value !== 'boolean') throw errors.field('has_requested_review', 'Must be a valid boolean.');
  return { addon: req.params.addon, hasRequestedReview: value };
}

/**
 * v5 listing content review (the original's activity API, "Listing Content Review"): its authors
 * and reviewers read where the add-on's listing stands; its authors ask for a new review of a
 * rejected listing. The rules are ListingContentReview's (src/catalogue/lifecycle/).
 */
export const listingContentReviewRoutes = defineRoutes([
  {
    method: 'GET',
    path: '/addons/addon/<addon>/listingcontentreview/',
    versions: ['v5'],
    document: gql`
      query RestListingContentReview($addon: String!) {
        addonListingContentReview(addon: $addon) {
          ...RestListingContentReviewFields
        }
      }
      ${fields}
    `,
    variables: (req) => ({ addon: req.params.addon }),
    shape: (data: RestListingContentReviewQuery) => shape(data.addonListingContentReview),
  },
  {
    method: 'PATCH',
    path: '/addons/addon/<addon>/listingcontentreview/',
    versions: ['v5'],
    errorStyle: 'drf',
    document: gql`
      mutation RestRequestListingContentReview($addon: String!, $hasRequestedReview: Boolean!) {
        requestListingContentReview(addon: $addon, hasRequestedReview: $hasRequestedReview) {
          ...RestListingContentReviewFields
        }
      }
      ${fields}
    `,
    variables: requestVariables,
    shape: (data: RestRequestListingContentReviewMutation) => shape(data.requestListingContentReview),
  },
]);
