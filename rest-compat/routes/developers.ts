import { errors } from '../../src/core/errors.js';
import { fieldMessages } from '../../src/core/messages.js';
import { DATETIME_FORMAT_MESSAGE, parseAgreementDate } from '../../src/accounts/developer-agreement.js';
import type {
  RestAcceptDeveloperAgreementMutation,
  RestDeveloperAgreementQuery,
  RestSubmitSupportTicketMutation,
} from '../generated/operations.js';
import { defineRoutes, gql, type RestRequest, type RouteDefinition, type ShapeContext } from '../route.js';

/** A JSON object body, else DRF's 400. */
function bodyOf(req: RestRequest): Record<string, unknown> {
  const body = req.body ?? {};
  if (typeof body !== 'object' || Array.isArray(body)) throw errors.badRequest('Invalid data.');
  return body as Record<string, unknown>;
}

/**
 * A text field as DRF's `CharField` reads it: strings as they are, numbers and booleans as their
 * text, null kept (the service says so), anything else refused.
 */
function text(body: Record<string, unknown>, field: string): string | null | undefined {
  const value = body[field];
  if (value === undefined || value === null || typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  throw errors.field(field, fieldMessages.string);
}

/** POST agreement body: `display_name` (when the account has none), `last_developer_agreement_change` (required). */
function agreementVariables(req: RestRequest) {
  const body = bodyOf(req);
  const date = body.last_developer_agreement_change;
  if (date !== undefined && date !== null && typeof date !== 'string') {
    throw errors.field('last_developer_agreement_change', DATETIME_FORMAT_MESSAGE);
  }
  // Missing and null differ (required / may not be null), and so do they for a display name.
  const input: Record<string, unknown> = {};
  if (date !== undefined) input.lastDeveloperAgreementChange = date;
  if (body.display_name !== undefined) input.displayName = text(body, 'display_name');
  return { input };
}

/** The agreement date as sent, written as the GET writes it (it equals the date in force once accepted). */
function acceptedDate(req: RestRequest, ctx: ShapeContext): string | null {
  const sent = bodyOf(req).last_developer_agreement_change;
  const date = typeof sent === 'string' ? parseAgreementDate(sent) : null;
  return date && ctx.timestamp(date);
}

/** The route at the documented path (no trailing slash) and with one, as the original's pattern matches both. */
function bothPaths(route: Omit<RouteDefinition, 'path'>, path: string): RouteDefinition[] {
  return [
    { ...route, path },
    { ...route, path: `${path}/` },
  ];
}

/**
 * The original's internal developer endpoints (v5 `developers/`): the developer agreement (GET: the
 * signed-in user's standing; POST: accept it, with a display name when the account has none) and
 * support tickets. Signed-in callers, sessions or API keys. Rules: DeveloperAgreementService
 * (src/accounts/developer-agreement.ts) and SupportService (src/developers/).
 */
export const developerRoutes = defineRoutes([
  ...bothPaths(
    {
      method: 'GET',
      versions: ['v5'],
      document: gql`
        query RestDeveloperAgreement {
          developerAgreement {
            displayName
            hasReadDeveloperAgreement
            lastDeveloperAgreementChange
          }
        }
      `,
      shape: (data: RestDeveloperAgreementQuery, ctx) => ({
        display_name: data.developerAgreement.displayName,
        has_read_developer_agreement: data.developerAgreement.hasReadDeveloperAgreement,
        last_developer_agreement_change: ctx.timestamp(data.developerAgreement.lastDeveloperAgreementChange),
      }),
    },
    '/developers/agreement',
  ),
  ...bothPaths(
    {
      method: 'POST',
      versions: ['v5'],
      errorStyle: 'drf',
      document: gql`
        mutation RestAcceptDeveloperAgreement($input: DeveloperAgreementInput!) {
          acceptDeveloperAgreement(input: $input) {
            displayName
          }
        }
      `,
      variables: agreementVariables,
      // The serializer's fields, as accepted.
      shape: (data: RestAcceptDeveloperAgreementMutation, ctx) => ({
        display_name: data.acceptDeveloperAgreement.displayName,
        last_developer_agreement_change: acceptedDate(ctx.request, ctx),
      }),
    },
    '/developers/agreement',
  ),
  ...bothPaths(
    {
      method: 'POST',
      versions: ['v5'],
      errorStyle: 'drf',
      status: 201,
      document: gql`
        mutation RestSubmitSupportTicket($input: SupportTicketInput!) {
          submitSupportTicket(input: $input) {
            summary
            body
            category
          }
        }
      `,
      variables: (req) => {
        const body = bodyOf(req);
        // A field left out stays out (required), apart from one sent as null (may not be null).
        const input: Record<string, unknown> = {};
        for (const field of ['summary', 'body', 'category']) {
          if (body[field] !== undefined) input[field] = text(body, field);
        }
        return { input };
      },
      // Echoes the ticket as accepted (texts trimmed, as DRF's CharField gives them back).
      shape: (data: RestSubmitSupportTicketMutation) => ({
        summary: data.submitSupportTicket.summary,
        body: data.submitSupportTicket.body,
        category: data.submitSupportTicket.category,
      }),
    },
    '/developers/support',
  ),
]);
