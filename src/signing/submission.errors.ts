import { errors } from '../core/errors.js';
import { fieldMessages } from '../core/messages.js';

/** The v5 submission API's messages (DRF field maps), where they differ from the signing API's. */
export const submissionErrors = {
  required: (field: string) => errors.field(field, fieldMessages.required),
  choice: (field: string, value: string) => errors.field(field, fieldMessages.choice(value)),
  noFile: (field: string) => errors.field(field, 'No file was submitted.'),
  unknownUpload: (uuid: string) => errors.field('upload', `Object with uuid=${uuid} does not exist.`),
  alreadySubmitted: () => errors.field('upload', 'This upload has already been submitted.'),
  notValid: () => errors.field('upload', 'Upload is not valid.'),
};
