import { ALL_VERSIONS } from '../gates.js';
import { userName } from '../shapes/addons.js';
import { collectionInputFromBody, itemInputFromBody } from '../params/collections.js';
import type {
  RestAddCollectionAddonMutation,
  RestCollectionAddonFieldsFragment,
  RestCollectionAddonQuery,
  RestCollectionAddonsQuery,
  RestCollectionQuery,
  RestCollectionsQuery,
  RestCreateCollectionMutation,
  RestUpdateCollectionAddonMutation,
  RestUpdateCollectionMutation,
} from '../generated/operations.js';
import { paginated, pageVariables } from '../pagination.js';
import { defineRoutes, gql, type RestRequest, type ShapeContext } from '../route.js';
import { addonFields, shapeAddon, versionFields } from '../shapes/addons.js';

const collectionFields = gql`
  fragment RestCollectionFields on Collection {
    id
    uuid
    url
    addonCount
    author: authorSummary {
      id
      name
      username
      displayName
    }
    description
    modified
    name
    slug
    public
    defaultLocale
  }
`;

/** The add-on object is the detail one (as in the original's collection serializer). */
const itemFields = gql`
  fragment RestCollectionAddonFields on CollectionAddon {
    addon {
      ...RestAddonFields
      currentVersion {
        ...RestVersionFields
      }
      latestUnlistedVersion {
        ...RestVersionFields
      }
      canSeeUnlisted
    }
    notes
  }
  ${addonFields}
  ${versionFields}
`;

/** A collection; the detail adds its add-ons when asked (`with_addons`). */
function shapeCollection(collection: RestCollectionQuery['collection'], ctx: ShapeContext) {
  const { author } = collection;
  return {
    id: collection.id,
    uuid: collection.uuid,
    url: collection.url,
    addon_count: collection.addonCount,
    author: {
      id: author.id,
      name: userName(author, ctx),
      url: ctx.absolute(`/user/${author.id}/`),
      username: author.username,
    },
    description: ctx.translated(collection.description, collection.defaultLocale),
    modified: ctx.timestamp(collection.modified),
    name: ctx.translated(collection.name, collection.defaultLocale),
    slug: collection.slug,
    public: collection.public,
    default_locale: collection.defaultLocale,
    ...(collection.addons ? { addons: collection.addons.map((item) => shapeItem(item, ctx)) } : {}),
  };
}

/** v3 items carry `downloads`: installs through collections are not counted, so always 0 (as the original by then). */
function shapeItem(item: RestCollectionAddonFieldsFragment, ctx: ShapeContext) {
  return {
    // Null when the add-on row is gone (the schema's CollectionAddon.addon is nullable).
    addon: item.addon && shapeAddon(item.addon, ctx),
    notes: ctx.translated(item.notes),
    ...(ctx.gate('collections-downloads-shim') ? { downloads: 0 } : {}),
  };
}

const both = ALL_VERSIONS;
const base = '/accounts/account/<user>/collections/';
const detail = `${base}<slug>/`;
const items = `${detail}addons/`;
const item = `${items}<addon>/`;

const collectionVariables = (req: RestRequest) => ({ user: req.params.user, slug: req.params.slug });
const itemVariables = (req: RestRequest) => ({ ...collectionVariables(req), addon: req.params.addon });

export const collectionRoutes = defineRoutes([
  {
    method: 'GET',
    path: base,
    versions: both,
    document: gql`
      query RestCollections($user: String!, $page: Int, $pageSize: Int) {
        collections(user: $user, page: $page, pageSize: $pageSize) {
          count
          page
          pageSize
          pageCount
          items {
            ...RestCollectionFields
          }
        }
      }
      ${collectionFields}
    `,
    variables: (req) => ({ user: req.params.user, ...pageVariables(req) }),
    shape: (data: RestCollectionsQuery, ctx) => paginated(data.collections, ctx, (c) => shapeCollection(c, ctx)),
  },
  {
    method: 'POST',
    path: base,
    versions: both,
    document: gql`
      mutation RestCreateCollection($user: String!, $input: CollectionInput!) {
        createCollection(user: $user, input: $input) {
          ...RestCollectionFields
        }
      }
      ${collectionFields}
    `,
    variables: (req) => ({ user: req.params.user, input: collectionInputFromBody(req.body, req.version) }),
    status: 201,
    shape: (data: RestCreateCollectionMutation, ctx) => shapeCollection(data.createCollection, ctx),
  },
  {
    method: 'GET',
    path: detail,
    versions: both,
    document: gql`
      query RestCollection($user: String!, $slug: String!, $withAddons: Boolean!, $filter: String) {
        collection(user: $user, slug: $slug) {
          ...RestCollectionFields
          addons(filter: $filter) @include(if: $withAddons) {
            ...RestCollectionAddonFields
          }
        }
      }
      ${collectionFields}
      ${itemFields}
    `,
    variables: (req) => ({
      ...collectionVariables(req),
      withAddons: req.query.has('with_addons'),
      filter: req.query.get('filter'),
    }),
    shape: (data: RestCollectionQuery, ctx) => shapeCollection(data.collection, ctx),
  },
  {
    method: 'PATCH',
    path: detail,
    versions: both,
    document: gql`
      mutation RestUpdateCollection($user: String!, $slug: String!, $input: CollectionInput!) {
        updateCollection(user: $user, slug: $slug, input: $input) {
          ...RestCollectionFields
        }
      }
      ${collectionFields}
    `,
    variables: (req) => ({ ...collectionVariables(req), input: collectionInputFromBody(req.body, req.version) }),
    shape: (data: RestUpdateCollectionMutation, ctx) => shapeCollection(data.updateCollection, ctx),
  },
  {
    method: 'DELETE',
    path: detail,
    versions: both,
    document: gql`
      mutation RestDeleteCollection($user: String!, $slug: String!) {
        deleteCollection(user: $user, slug: $slug)
      }
    `,
    variables: collectionVariables,
    status: 204,
    shape: () => null,
  },
  {
    method: 'GET',
    path: items,
    versions: both,
    document: gql`
      query RestCollectionAddons(
        $user: String!
        $slug: String!
        $filter: String
        $sort: String
        $page: Int
        $pageSize: Int
      ) {
        collectionAddons(user: $user, slug: $slug, filter: $filter, sort: $sort, page: $page, pageSize: $pageSize) {
          count
          page
          pageSize
          pageCount
          items {
            ...RestCollectionAddonFields
          }
        }
      }
      ${itemFields}
    `,
    variables: (req) => ({
      ...collectionVariables(req),
      filter: req.query.get('filter'),
      sort: req.query.get('sort'),
      ...pageVariables(req),
    }),
    shape: (data: RestCollectionAddonsQuery, ctx) => paginated(data.collectionAddons, ctx, (i) => shapeItem(i, ctx)),
  },
  {
    method: 'POST',
    path: items,
    versions: both,
    document: gql`
      mutation RestAddCollectionAddon($user: String!, $slug: String!, $addon: String, $notes: TranslatedInput) {
        addCollectionAddon(user: $user, slug: $slug, addon: $addon, notes: $notes) {
          ...RestCollectionAddonFields
        }
      }
      ${itemFields}
    `,
    variables: (req) => ({ ...collectionVariables(req), ...itemInputFromBody(req.body, true, req.version) }),
    status: 201,
    shape: (data: RestAddCollectionAddonMutation, ctx) => shapeItem(data.addCollectionAddon, ctx),
  },
  {
    method: 'GET',
    path: item,
    versions: both,
    document: gql`
      query RestCollectionAddon($user: String!, $slug: String!, $addon: String!) {
        collectionAddon(user: $user, slug: $slug, addon: $addon) {
          ...RestCollectionAddonFields
        }
      }
      ${itemFields}
    `,
    variables: itemVariables,
    shape: (data: RestCollectionAddonQuery, ctx) => shapeItem(data.collectionAddon, ctx),
  },
  {
    method: 'PATCH',
    path: item,
    versions: both,
    document: gql`
      mutation RestUpdateCollectionAddon($user: String!, $slug: String!, $addon: String!, $notes: TranslatedInput) {
        updateCollectionAddon(user: $user, slug: $slug, addon: $addon, notes: $notes) {
          ...RestCollectionAddonFields
        }
      }
      ${itemFields}
    `,
    variables: (req) => ({ ...itemVariables(req), ...itemInputFromBody(req.body, false, req.version) }),
    shape: (data: RestUpdateCollectionAddonMutation, ctx) => shapeItem(data.updateCollectionAddon, ctx),
  },
  {
    method: 'DELETE',
    path: item,
    versions: both,
    document: gql`
      mutation RestRemoveCollectionAddon($user: String!, $slug: String!, $addon: String!) {
        removeCollectionAddon(user: $user, slug: $slug, addon: $addon)
      }
    `,
    variables: itemVariables,
    status: 204,
    shape: () => null,
  },
]);
