import { ALL_VERSIONS } from '../gates.js';
import { z } from 'zod';
import { errors } from '../../src/core/errors.js';
import type {
  RestAddReviewNoteMutation,
  RestReceiveReviewMailMutation,
  RestReviewNoteFieldsFragment,
  RestReviewNoteQuery,
  RestReviewNotesQuery,
} from '../generated/operations.js';
import { parseIntParam } from '../params/catalogue.js';
import { paginated, pageVariables } from '../pagination.js';
import { defineRoutes, gql, type RestRequest, type ShapeContext } from '../route.js';

/** Review notes (docs/compat-notes.md §4.6): v4 shows only the writer's name; v3 also id, username and URL. */
const noteFields = gql`
  fragment RestReviewNoteFields on ReviewNote {
    id
    action
    actionLabel
    comments
    userName
    user: userSummary {
      id
      username
    }
    date
    highlight
  }
`;

function shapeNote(note: RestReviewNoteFieldsFragment, ctx: ShapeContext) {
  const user = ctx.gate('activity-user-shim')
    ? {
        id: note.user?.id ?? null,
        name: note.userName,
        url: note.user ? ctx.absolute(`/user/${note.user.id}/`) : null,
        username: note.user?.username ?? null,
      }
    : { name: note.userName };
  return {
    id: note.id,
    action: note.action,
    action_label: note.actionLabel,
    comments: note.comments,
    user,
    date: ctx.timestamp(note.date),
    highlight: note.highlight,
  };
}

const notesPath = '/addons/addon/<addon>/versions/<version>/reviewnotes/';
const noteVariables = (req: RestRequest) => ({ addon: req.params.addon, versionId: parseIntParam(req.params.version) });
const both = ALL_VERSIONS;
const auth = ['session', 'jwt'] as const;

function body(req: RestRequest): Record<string, unknown> {
  return req.body && typeof req.body === 'object' && !Array.isArray(req.body)
    ? (req.body as Record<string, unknown>)
    : {};
}

/** A recipient, as the mail provider lists them (`{"EmailAddress": …, "FriendlyName": …}`). */
const mailRecipients = z.array(z.object({ EmailAddress: z.string() })).nullish();

/**
 * The mail provider's JSON (docs/compat-notes.md §4.6): `SecretKey`, `Type`, `Message.TextBody` and the
 * recipients' `EmailAddress`, listed in `Message.To` (the provider's shape) or `To`. Other fields
 * are ignored; null counts as absent (a missing `Message` is the service's 400, after the secret).
 */
const inboundMail = z.object({
  SecretKey: z.string(),
  Type: z.string().nullish(),
  Message: z.object({ TextBody: z.string(), To: mailRecipients }).nullish(),
  To: mailRecipients,
});

/** Any body the schema refuses is a 400 in the `{"detail"}` shape, naming the first bad field. */
function mailVariables(req: RestRequest) {
  const parsed = inboundMail.safeParse(req.body, { reportInput: true });
  if (!parsed.success) throw errors.badRequest(mailProblem(parsed.error.issues[0]));
  const { SecretKey, Type, Message, To } = parsed.data;
  return {
    secretKey: SecretKey,
    type: Type ?? null,
    to: [...(Message?.To ?? []), ...(To ?? [])].map((recipient) => recipient.EmailAddress),
    textBody: Message ? Message.TextBody : null,
  };
}

function mailProblem(issue: z.core.$ZodIssue): string {
  if (!issue.path.length) return 'The POST data must be a JSON object.';
  const field = issue.path
    .map((key, i) => (typeof key === 'number' ? `[${key}]` : i ? `.${String(key)}` : String(key)))
    .join('');
  if (issue.code !== 'invalid_type') return `${field} is not valid.`;
  if (issue.input === undefined) return `${field} not present in the POST data.`;
  const expected = { object: 'an object', string: 'a string', array: 'an array' }[issue.expected as string];
  return `${field} must be ${expected ?? issue.expected}.`;
}

export const reviewRoutes = defineRoutes([
  {
    method: 'GET',
    path: notesPath,
    versions: both,
    auth,
    document: gql`
      query RestReviewNotes($addon: String!, $versionId: Int!, $page: Int, $pageSize: Int) {
        reviewNotes(addon: $addon, versionId: $versionId, page: $page, pageSize: $pageSize) {
          count
          page
          pageSize
          pageCount
          items {
            ...RestReviewNoteFields
          }
        }
      }
      ${noteFields}
    `,
    variables: (req) => ({ ...noteVariables(req), ...pageVariables(req) }),
    shape: (data: RestReviewNotesQuery, ctx) => paginated(data.reviewNotes, ctx, (n) => shapeNote(n, ctx)),
  },
  {
    method: 'GET',
    path: `${notesPath}<note>/`,
    versions: both,
    auth,
    document: gql`
      query RestReviewNote($addon: String!, $versionId: Int!, $id: Int!) {
        reviewNote(addon: $addon, versionId: $versionId, id: $id) {
          ...RestReviewNoteFields
        }
      }
      ${noteFields}
    `,
    variables: (req) => ({ ...noteVariables(req), id: parseIntParam(req.params.note) }),
    shape: (data: RestReviewNoteQuery, ctx) => shapeNote(data.reviewNote, ctx),
  },
  {
    method: 'POST',
    path: notesPath,
    versions: both,
    auth,
    document: gql`
      mutation RestAddReviewNote($addon: String!, $versionId: Int!, $comments: String!) {
        addReviewNote(addon: $addon, versionId: $versionId, comments: $comments) {
          ...RestReviewNoteFields
        }
      }
      ${noteFields}
    `,
    variables: (req) => {
      const comments = body(req).comments;
      return { ...noteVariables(req), comments: typeof comments === 'string' ? comments : '' };
    },
    status: 201,
    shape: (data: RestAddReviewNoteMutation, ctx) => shapeNote(data.addReviewNote, ctx),
  },
  ...['/activity/mail/', '/activity/mail'].map((path) => ({
    method: 'POST' as const,
    path,
    versions: both,
    auth: [] as const,
    document: gql`
      mutation RestReceiveReviewMail($secretKey: String, $type: String, $to: [String!], $textBody: String) {
        receiveReviewMail(secretKey: $secretKey, type: $type, to: $to, textBody: $textBody) {
          validationKey
          validation
        }
      }
    `,
    variables: mailVariables,
    // Validation probes get 200; messages 201, whether they became a note or were discarded.
    status: (data: RestReceiveReviewMailMutation) => (data.receiveReviewMail.validation ? 200 : 201),
    shape: (data: RestReceiveReviewMailMutation) => data.receiveReviewMail.validationKey,
  })),
]);
