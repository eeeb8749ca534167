import type { RestBlockQuery } from '../generated/operations.js';
import { SINCE_V4 } from '../gates.js';
import { defineRoutes, gql, type ShapeContext } from '../route.js';

type BlockData = RestBlockQuery['block'];

/**
 * A block as the original's `BlockSerializer` sends it: the versions blocked hard and soft, and,
 * behind its gates, the range the versions span (`block-min-max-versions-shim`) and their list
 * (`block-versions-list-shim`).
 */
function shapeBlock(block: BlockData, ctx: ShapeContext) {
  const blocked = block.soft ? [] : block.versions;
  return {
    id: block.id,
    created: ctx.timestamp(block.created),
    modified: ctx.timestamp(block.modified),
    addon_name: ctx.translated(block.addonName),
    blocked,
    soft_blocked: block.soft ? block.versions : [],
    guid: block.guid,
    reason: block.reason ?? '',
    url: ctx.link(block.url),
    is_all_versions: block.isAllVersions,
    ...(ctx.gate('block-min-max-versions-shim')
      ? block.isAllVersions
        ? { min_version: '0', max_version: '*' }
        : { min_version: blocked[0] ?? '', max_version: blocked.at(-1) ?? '' }
      : {}),
    ...(ctx.gate('block-versions-list-shim') ? { versions: blocked } : {}),
  };
}

export const blocklistRoutes = defineRoutes([
  {
    method: 'GET',
    path: '/blocklist/block/<idOrGuid>/',
    versions: SINCE_V4,
    document: gql`
      query RestBlock($idOrGuid: String!) {
        block(idOrGuid: $idOrGuid) {
          id
          guid
          addonName
          versions
          isAllVersions
          soft
          reason
          url
          created
          modified
        }
      }
    `,
    variables: (req) => ({ idOrGuid: req.params.idOrGuid }),
    shape: (data: RestBlockQuery, ctx) => shapeBlock(data.block, ctx),
  },
]);
