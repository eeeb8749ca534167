import { defineObjectRule } from '../access/object-rules.js';
import { Permission } from '../access/permissions.js';
import { canSeeAddon, isAuthor, isDeletedAddon } from '../catalogue/addon-access.js';
import type { AddonRecord } from '../catalogue/catalogue.records.js';
import type { Channel } from '../catalogue/catalogue.enums.js';
import { isChannelReviewer } from '../catalogue/version-access.js';
import type { RequestContext } from '../core/context.js';
import { errors } from '../core/errors.js';
import { signingErrors } from './signing.errors.js';
import { submissionErrors } from './submission.errors.js';
import type { FileUpload } from './upload.entity.js';

/**
 * Who may upload, follow, download, roll back and edit versions: the object rules the signing
 * operations declare, each called by the service where it decides (after a 404 for an unknown
 * add-on or file).
 */

type AddonRef = { readonly id: number };

/**
 * A version of an existing (not deleted) add-on is uploaded by one of its authors (403 "You do not
 * own this addon." otherwise); a new add-on's, or one not named yet (`null`), by anyone.
 */
export const submitVersion = defineObjectRule(
  'upload.submit',
  'signed in; a new version of an existing add-on from one of its authors',
  async (ctx: RequestContext, existing: (AddonRef & { readonly status: number }) | null): Promise<void> => {
    if (existing && !isDeletedAddon(existing) && !(await isAuthor(ctx, existing.id))) throw signingErrors.notOwner();
  },
);

/** An upload submitted by `uploadUuid` is the caller's own (the unknown-upload field error otherwise); answers it. */
export const ownUpload = defineObjectRule(
  'upload.own',
  "the upload is the caller's own",
  (ctx: RequestContext, upload: FileUpload | null, uuid: string): FileUpload => {
    if (!upload || !ctx.viewer.is(upload.user.id)) throw submissionErrors.unknownUpload(uuid);
    return upload;
  },
);

/** An upload as the rule reads it: its uploader and, once submitted, its add-on. */
interface UploadSubject {
  readonly user: AddonRef;
  readonly addon?: AddonRef | null;
}

/**
 * An add-on's uploads are read by its authors and Addons:Edit (403 "You do not own this addon."
 * otherwise); one upload by uuid alone (`upload`) by its uploader (while their key reaches its
 * add-on) and, once submitted, its add-on's authors and Addons:Edit (404 otherwise).
 */
export const readUploads = defineObjectRule(
  'upload.read',
  'an author of the add-on (Addons:Edit reads any); by uuid alone, the uploader too',
  async (ctx: RequestContext, subject: { addon: AddonRef } | { upload: UploadSubject | null }): Promise<void> => {
    if ('addon' in subject) {
      if (!(await isAuthor(ctx, subject.addon.id)) && !ctx.viewer.can(Permission.ADDONS_EDIT)) {
        throw signingErrors.notOwner();
      }
      return;
    }
    const { upload } = subject;
    const allowed =
      upload &&
      ((ctx.viewer.is(upload.user.id) && (!upload.addon || ctx.viewer.keyReachesAddon(upload.addon.id))) ||
        (upload.addon && ((await isAuthor(ctx, upload.addon.id)) || ctx.viewer.can(Permission.ADDONS_EDIT))));
    if (!allowed) throw errors.notFound();
  },
);

/**
 * A file that is not public (`isPublic` false) is downloaded by its add-on's authors and reviewers
 * of its channel; "not found" for others. Answers whether it is public.
 */
export const downloadFile = defineObjectRule(
  'file.download',
  'public files; others for their authors and reviewers',
  async (
    ctx: RequestContext,
    file: { readonly version: { readonly addon: AddonRef; readonly channel: Channel } },
    isPublic: boolean,
  ): Promise<boolean> => {
    if (isPublic) return true;
    // The author's statement first, reviewers included (as ever: statement counts unchanged).
    const author = await isAuthor(ctx, file.version.addon.id);
    if (author || isChannelReviewer(ctx.viewer, file.version.channel)) return false;
    throw errors.notFound();
  },
);

/** An add-on's versions are rolled back by its authors and Addons:Edit; 403, or 404 to those who cannot see it. */
export const rollBackVersions = defineObjectRule(
  'addon.rollback',
  'an author of the add-on (or Addons:Edit)',
  async (ctx: RequestContext, addon: AddonRecord): Promise<void> => {
    if ((await isAuthor(ctx, addon.id)) || ctx.viewer.can(Permission.ADDONS_EDIT)) return;
    throw (await canSeeAddon(ctx, addon)) ? errors.forbidden() : errors.notFound();
  },
);

/** An add-on's versions are edited and added (with their sources) by its authors and Addons:Edit; 403 otherwise. */
export const editVersions = defineObjectRule(
  'addon.editVersions',
  'an author of the add-on, or Addons:Edit',
  async (ctx: RequestContext, addon: AddonRef): Promise<void> => {
    if (!ctx.viewer.can(Permission.ADDONS_EDIT) && !(await isAuthor(ctx, addon.id))) throw errors.forbidden();
  },
);
