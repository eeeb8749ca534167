import { column, nullable, pg, table } from '../db/columns.js';

/**
 * The `ratings` columns plain-row reads select (`RatingRecord`, keyed as its fields, whose writer
 * comes from the joined `users u`), each once. The entity (`rating.entity.ts`) stays the table's
 * definition for migrations.
 */
export const RATING_TABLE = table('ratings', {
  id: column('id', pg.int),
  addon: column('addon_id', pg.ref),
  /** Null for replies. */
  version: column('version_id', nullable(pg.ref)),
  replyTo: column('reply_to_id', nullable(pg.ref)),
  score: column('score', nullable(pg.smallint)),
  body: column('body', nullable(pg.text)),
  deleted: column('deleted', pg.boolean),
  isLatest: column('is_latest', pg.boolean),
  previousCount: column('previous_count', pg.int),
  editorReview: column('editor_review', pg.boolean),
  created: column('created', pg.timestamptz),
});
