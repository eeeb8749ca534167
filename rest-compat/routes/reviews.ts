import type { Page } from '../../src/core/pagination.js';
import { parseIntParam } from '../../src/catalogue/catalogue.params.js';
import { paginated, pageVariables } from '../pagination.js';
import { defineRoutes, gql, type RestRequest, type ShapeContext } from '../route.js';

/** Review notes (compat notes §4.6): v4 shows only the writer's name; v3 also id, username and URL. */
const noteFields = gql`
  fragment RestReviewNoteFields on ReviewNote {
    id
    action
    actionLabel
    comments
    userName
    user {
      id
      username
    }
    date
    highlight
  }
`;

interface NoteData {
  id: number;
  action: string;
  actionLabel: string;
  comments: string;
  userName: string;
  user: { id: number; username: string } | null;
  date: string;
  highlight: boolean;
}

function shapeNote(note: NoteData, ctx: ShapeContext) {
  const user =
    ctx.version === 'v3'
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
const both = ['v3', 'v4'] as const;
const auth = ['session', 'jwt'] as const;

function body(req: RestRequest): Record<string, unknown> {
  return req.body && typeof req.body === 'object' && !Array.isArray(req.body)
    ? (req.body as Record<string, unknown>)
    : {};
}

/** The mail provider's JSON: `SecretKey`, `Type`, `Message.TextBody`, `To[].EmailAddress`. */
function mailVariables(req: RestRequest) {
  const data = body(req);
  const message = data.Message && typeof data.Message === 'object' ? (data.Message as Record<string, unknown>) : null;
  const to = Array.isArray(data.To) ? data.To : [];
  return {
    secretKey: typeof data.SecretKey === 'string' ? data.SecretKey : null,
    type: typeof data.Type === 'string' ? data.Type : null,
    to: to
      .map((entry) => (entry && typeof entry === 'object' ? (entry as Record<string, unknown>).EmailAddress : null))
      .filter((address): address is string => typeof address === 'string'),
    textBody: message ? (typeof message.TextBody === 'string' ? message.TextBody : '') : null,
  };
}

type MailReceipt = { receiveReviewMail: { validationKey: string; validation: boolean } };

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
    shape: (data: { reviewNotes: Page<NoteData> }, ctx) => paginated(data.reviewNotes, ctx, (n) => shapeNote(n, ctx)),
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
    shape: (data: { reviewNote: NoteData }, ctx) => shapeNote(data.reviewNote, ctx),
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
    shape: (data: { addReviewNote: NoteData }, ctx) => shapeNote(data.addReviewNote, ctx),
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
    status: (data: MailReceipt) => (data.receiveReviewMail.validation ? 200 : 201),
    shape: (data: MailReceipt) => data.receiveReviewMail.validationKey,
  })),
]);
