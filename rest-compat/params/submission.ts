import Upload from 'graphql-upload/Upload.mjs';
import { errors } from '../../src/core/errors.js';
import { fieldMessages } from '../../src/core/messages.js';
import { categorySlugs } from './addon-edit.js';
import { jsonObject } from './fields.js';

/** The v5 submission API's bodies (routes/submission.ts), as the original's serializers read them. */

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A version edit's `source`: a multipart file part. Anything else named `source` is DRF's refusal
 * of a non-file (a JSON body cannot carry one); absent or null: no change.
 */
export function sourceField(req: { body: unknown }): Upload | null {
  const { source } = jsonObject(req.body);
  if (source === undefined || source === null) return null;
  if (source instanceof Upload) return source;
  throw errors.field('source', 'The submitted data was not a file. Check the encoding type on the form.');
}

/**
 * `{"version": {"upload": "<uuid>", "license": …}, "name": …, "summary": …, "categories": […]}`:
 * the upload to submit and the listing metadata (web-ext's `--amo-metadata` merges into it).
 */
export function submissionVariables(req: { body: unknown }, guid: string | null) {
  const body = jsonObject(req.body);
  const version = body.version;
  if (!isObject(version)) throw errors.field('version', fieldMessages.required);
  if (typeof version.upload !== 'string' || !version.upload) throw errors.field('upload', fieldMessages.required);
  const categories = categorySlugs(body.categories);
  const license = version.license;
  if (license !== undefined && license !== null && typeof license !== 'string') {
    throw errors.field('license', 'Incorrect type. Expected slug value.');
  }
  return {
    uploadUuid: version.upload,
    guid,
    metadata: {
      name: body.name ?? null,
      summary: body.summary ?? null,
      description: body.description ?? null,
      categories,
      license: license ?? null,
    },
  };
}
