import type { ReviewHooks } from '../reviews/review.hooks.js';
import { FileUpload } from './upload.entity.js';

/** What reviewers read of the uploads versions came from (the steps reviews runs, `ReviewHooks`). */
export const uploadValidations: ReviewHooks = {
  async versionUpload(em, versionId) {
    const upload = await em.findOne(
      FileUpload,
      { createdVersion: versionId },
      { fields: ['uuid', 'validation'], orderBy: { created: 'desc' } },
    );
    return upload && { uuid: upload.uuid, validation: upload.validation };
  },
  async versionValidation(em, versionId) {
    const upload = await em.findOne(
      FileUpload,
      { createdVersion: versionId, validation: { $ne: null } },
      { fields: ['validation'], orderBy: { created: 'desc' } },
    );
    return upload?.validation ?? null;
  },
};
