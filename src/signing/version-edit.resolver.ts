import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import { Permission } from '../access/permissions.js';
import { isAuthor } from '../catalogue/addon-access.js';
import { VersionType } from '../catalogue/catalogue.types.js';
import type { VersionRecord } from '../catalogue/catalogue.records.js';
import { FileStatus } from '../catalogue/catalogue.enums.js';
import { FileDisabledReason } from '../catalogue/lifecycle/version-disabling.js';
import { isChannelReviewer } from '../catalogue/version-access.js';
import type { RequestContext } from '../core/context.js';
import { defineLoader } from '../core/loaders.js';
import { lookupRows } from '../db/rows.js';
import { intArray } from '../db/sql.js';

/** Each version's edit-only facts: its notes for reviewers, whether its developer disabled it. */
const versionEditFacts = defineLoader<number, { approvalNotes: string; disabledByDeveloper: boolean }>(
  'versionEditFacts',
  async (ctx, ids) => {
    const rows = await lookupRows<{ id: number; approval_notes: string; disabled: boolean | null }>(
      ctx.em,
      `select v.id, v.approval_notes,
              bool_and(f.status = ? and f.disabled_reason = ?) as disabled
         from versions v left join files f on f.version_id = v.id
        where v.id = any(?::int[]) group by v.id`,
      [FileStatus.DISABLED, FileDisabledReason.DEVELOPER, intArray(ids)],
    );
    const byId = new Map(rows.map((r) => [r.id, r]));
    return ids.map((id) => ({
      approvalNotes: byId.get(id)?.approval_notes ?? '',
      disabledByDeveloper: byId.get(id)?.disabled === true,
    }));
  },
);

/** What a version shows of its developer-writable fields (v5's developer version serializer). */
@Resolver(() => VersionType)
export class VersionEditResolver {
  @FieldResolver(() => String, {
    nullable: true,
    description:
      "The developer's notes for reviewers; null unless the viewer is an author, a reviewer of the version's channel, or has Addons:Edit.",
  })
  async approvalNotes(@Root() version: VersionRecord, @Ctx() ctx: RequestContext): Promise<string | null> {
    const mayRead =
      ctx.viewer.isAuthenticated &&
      (ctx.viewer.can(Permission.ADDONS_EDIT) ||
        isChannelReviewer(ctx.viewer, version.channel) ||
        (await isAuthor(ctx, version.addon.id)));
    return mayRead ? (await ctx.loaders.get(versionEditFacts).load(version.id)).approvalNotes : null;
  }

  @FieldResolver(() => Boolean, {
    description: 'Whether its developer disabled this version (its files are kept, not offered).',
  })
  async isDisabled(@Root() version: VersionRecord, @Ctx() ctx: RequestContext): Promise<boolean> {
    return (await ctx.loaders.get(versionEditFacts).load(version.id)).disabledByDeveloper;
  }
}
