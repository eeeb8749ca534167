import type { FilterQuery } from '@mikro-orm/core';
import type { RequestContext } from '../core/context.js';
import { errors } from '../core/errors.js';
import { pageRequest, toPage, type Page } from '../core/pagination.js';
import type { UploadType } from './signing.types.js';
import { FileUpload } from './upload.entity.js';
import type { UploadsService } from './uploads.service.js';

/**
 * The signed-in user's uploads, newest first (v5's upload list): every package they uploaded,
 * submitted or not. An API key limited to some add-ons lists the uploads not yet submitted and
 * those of its add-ons, as the upload detail answers them (`UploadsService.uploadByUuid`).
 */
export async function listOwnUploads(
  ctx: RequestContext,
  uploads: UploadsService,
  page: number | null | undefined,
  pageSize: number | null | undefined,
): Promise<Page<UploadType>> {
  const userId = ctx.viewer.userId;
  if (userId === null) throw errors.notAuthenticated();
  const request = pageRequest(page, pageSize);
  const reachable = ctx.viewer.key?.addonIds ?? null;
  const where: FilterQuery<FileUpload> =
    reachable === null
      ? { user: userId }
      : { user: userId, $or: [{ addon: null }, { addon: { $in: [...reachable] } }] };
  const [rows, count] = await ctx.em.findAndCount(FileUpload, where, {
    orderBy: { created: 'desc', uuid: 'desc' },
    offset: request.offset,
    limit: request.limit,
  });
  const items: UploadType[] = [];
  for (const upload of rows) items.push(await uploads.describe(ctx, upload));
  return toPage(request, count, items);
}
