import { defineMail } from './template.js';

/**
 * Every mail the service sends, one template each (subject, body, footer; see `template.ts` for the
 * placeholder rules and why these are TypeScript modules and not `.txt` files). Importing this module
 * parses them all, so a broken template fails at startup and in `templates.test.ts`.
 */

/** Values of the review-decision mails, sent to each author of the add-on (with a reply address). */
const DECISION = ['addonName', 'version', 'comments', 'versionUrl', 'serviceName'] as const;

/**
 * Authors' mails about their add-on's versions go out under the mandatory notification
 * `individual_contact` (as the original sends them): they say so, and carry no unsubscribe link.
 */
const MANDATORY = 'Authors always get these mails: they cannot be turned off.';

const DECISION_FOOTER = [
  'You get this mail because you are an author of {{addonName}} on {{serviceName}} Add-ons.',
  'Reply to it to answer the reviewer: your reply is added to the review history of this version.',
  MANDATORY,
].join('\n');

/**
 * Mails under a notification the recipient may turn off: the footer names it and carries the
 * one-click unsubscribe link (`UnsubscribeCodes.pageUrl`: the catalogue front-end's page, which posts
 * to `POST /api/v5/accounts/unsubscribe/`), and the account's notification settings.
 */
const unsubscribeFooter = (why: string) =>
  `${why}\nTo stop these mails, open this link (no sign-in needed):\n{{unsubscribeUrl}}\nAll your notification settings: {{settingsUrl}}`;

const HISTORY = 'The review history of this version:\n{{versionUrl}}';

export const mails = {
  reviewApproved: defineMail('reviewApproved', {
    placeholders: DECISION,
    subject: 'Approved: {{addonName}} {{version}}',
    body: `Version {{version}} of {{addonName}} was approved.

Reviewer's comments:
{{comments}}

${HISTORY}`,
    footer: DECISION_FOOTER,
  }),

  reviewRejected: defineMail('reviewRejected', {
    placeholders: DECISION,
    subject: 'Rejected: {{addonName}} {{version}}',
    body: `Version {{version}} of {{addonName}} was rejected.

Reviewer's comments:
{{comments}}

${HISTORY}`,
    footer: DECISION_FOOTER,
  }),

  reviewInformationRequested: defineMail('reviewInformationRequested', {
    placeholders: DECISION,
    subject: 'More information requested: {{addonName}} {{version}}',
    body: `A reviewer needs more information about version {{version}} of {{addonName}}:

{{comments}}

Reply to this mail with the information.
${HISTORY}`,
    footer: DECISION_FOOTER,
  }),

  reviewComment: defineMail('reviewComment', {
    placeholders: DECISION,
    subject: 'Comment: {{addonName}} {{version}}',
    body: `A reviewer commented on version {{version}} of {{addonName}}:

{{comments}}

${HISTORY}`,
    footer: DECISION_FOOTER,
  }),

  /** To each author of the add-on when one of them rolled back a release (`rollbackVersion`). */
  versionRolledBack: defineMail('versionRolledBack', {
    placeholders: ['addonName', 'version', 'fromVersion', 'versionUrl', 'serviceName'],
    subject: 'Rollback: {{addonName}} {{version}}',
    body: `Version {{fromVersion}} of {{addonName}} is being re-published as version {{version}}.

Once signed it becomes the latest version of its channel: users with automatic updates get it.
Like any submission, reviewers may look at it later and ask for changes or take it down.

The version: {{versionUrl}}`,
    footer: `You get this mail because you are an author of {{addonName}} on {{serviceName}} Add-ons.\n${MANDATORY}`,
  }),

  /** To each author of the add-on (not the rater) when someone rates it: notification `new_review`. */
  ratingNew: defineMail('ratingNew', {
    placeholders: [
      'addonName',
      'userName',
      'score',
      'body',
      'ratingUrl',
      'serviceName',
      'unsubscribeUrl',
      'settingsUrl',
    ],
    subject: 'New rating of {{addonName}}',
    body: `{{userName}} rated {{addonName}} {{score}} out of 5:

{{body}}

The rating: {{ratingUrl}}`,
    footer: unsubscribeFooter(
      'You get this mail because you are an author of {{addonName}} on {{serviceName}} Add-ons and asked to hear when someone rates it.',
    ),
  }),

  /** To the author of a rating when a developer of the add-on replies to it: notification `reply`. */
  ratingReply: defineMail('ratingReply', {
    placeholders: ['addonName', 'body', 'ratingUrl', 'serviceName', 'unsubscribeUrl', 'settingsUrl'],
    subject: 'Reply to your rating of {{addonName}}',
    body: `A developer of {{addonName}} replied to your rating:

{{body}}

Your rating and the reply: {{ratingUrl}}`,
    footer: unsubscribeFooter(
      'You get this mail because you rated {{addonName}} on {{serviceName}} Add-ons and asked to hear when a developer replies.',
    ),
  }),

  /** To a reviewer subscribed to the add-on's versions on one channel (`listed` or `unlisted`). */
  subscriptionNewVersion: defineMail('subscriptionNewVersion', {
    placeholders: ['serviceName', 'addonName', 'version', 'channel', 'reviewUrl', 'unsubscribeUrl'],
    subject: '{{serviceName}} Add-ons: {{addonName}} updated',
    body: `A new {{channel}} version of {{addonName}}, {{version}}, was submitted.

Review it: {{reviewUrl}}`,
    footer: `You get this mail because you subscribed to the {{channel}} versions of {{addonName}}. To stop, unsubscribe through the reviewer API:
POST {{unsubscribeUrl}}`,
  }),

  /**
   * A one-time sign-in link (`SigninLinksService`), to whoever asked for one with this address: sent
   * whether or not it has an account, so the page that asks cannot tell.
   */
  signinLink: defineMail('signinLink', {
    placeholders: ['serviceName', 'link', 'minutes'],
    subject: 'Sign in to {{serviceName}} Add-ons',
    body: `To sign in to {{serviceName}} Add-ons, open this link and press "Sign in":

{{link}}

The link works once, for {{minutes}} minutes. Do not share it: it signs in whoever uses it.

If you did not ask to sign in, ignore this mail: nothing happens without the link.`,
    footer: 'You get this mail because someone asked for a sign-in link for this address on {{serviceName}} Add-ons.',
  }),

  /** An invitation to become an author of an add-on (`ListingService.inviteAuthor`), to the invitee. */
  authorInvitation: defineMail('authorInvitation', {
    placeholders: ['addonName', 'role', 'confirmUrl', 'declineUrl', 'serviceName'],
    subject: 'Invitation to become an author of {{addonName}}',
    body: `You were invited to become an author ({{role}}) of {{addonName}} on {{serviceName}} Add-ons.

Answer through the add-on API, signed in to this account (a session or an API key).
To accept:
POST {{confirmUrl}}
To decline:
POST {{declineUrl}}

Nothing changes until you accept.`,
    footer: 'You get this mail because an owner of {{addonName}} on {{serviceName}} Add-ons invited your account.',
  }),

  /** A developer's support ticket (`SupportService`), to the operator's support address (SUPPORT_EMAIL). */
  supportTicket: defineMail('supportTicket', {
    placeholders: ['serviceName', 'ticketId', 'category', 'categoryLabel', 'summary', 'body', 'user', 'profileUrl'],
    subject: '[Support #{{ticketId}}] {{category}}: {{summary}}',
    body: `A developer asked for support on {{serviceName}} Add-ons.

From: {{user}}
Account: {{profileUrl}}
Category: {{categoryLabel}} ({{category}})
Summary: {{summary}}

{{body}}

Replies to this mail go to the developer's address (none once the account is deleted).`,
    footer:
      'You get this mail because this address receives the developer support tickets of {{serviceName}} Add-ons (SUPPORT_EMAIL).',
  }),
};

export type MailName = keyof typeof mails;
export type MailValues<N extends MailName> = Parameters<(typeof mails)[N]['render']>[0];
