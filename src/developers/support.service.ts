import type { EntityManager } from '@mikro-orm/postgresql';
import { addressKey, takeAbuseThrottle, type AbuseRate } from '../abuse/abuse.throttle.js';
import { User } from '../accounts/user.entity.js';
import type { RequestContext } from '../core/context.js';
import { errors } from '../core/errors.js';
import { FieldErrorCollector } from '../core/field-errors.js';
import { fieldMessages } from '../core/messages.js';
import { lengthProblem, truncateText } from '../core/text-limits.js';
import { ownTransaction } from '../db/conflict-retries.js';
import type { Mailer } from '../mail/mailer.port.js';
import { mails } from '../mail/templates.js';
import { SUPPORT_CATEGORIES, SupportTicket, type SupportCategory } from './support-ticket.entity.js';
import { ABUSE_TEXT_LIMITS } from '../abuse/text-limits.js';
import { DEVELOPERS_TEXT_LIMITS } from './text-limits.js';

/** A ticket as sent (GraphQL `SupportTicketInput`): anything may be missing or wrong. */
export interface SupportTicketInput {
  summary?: string | null;
  body?: string | null;
  category?: string | null;
}

export interface SupportOptions {
  /** Tickets a user, and a client address, may send per day (SUPPORT_TICKETS_PER_DAY). */
  ticketsPerDay: number;
  /** Where tickets are mailed (SUPPORT_EMAIL). */
  supportEmail: string;
  siteUrl: string;
  serviceName: string;
}

/** What each category means, in the mail to the support address. */
const CATEGORY_LABELS: Record<SupportCategory, string> = {
  policy: 'Help with making an add-on comply with the policies',
  technical: 'A problem with this site',
  other: 'Other',
};

const DAY = 24 * 60 * 60;

/**
 * Developers' support tickets: a signed-in user sends a summary, a body and a category; the ticket
 * is kept (`support_tickets`) and mailed to the operator's support address by the
 * `support-ticket-mail` job (queued in the ticket's transaction, so a ticket is mailed once it
 * exists, and retried until the mailer takes it). Throttled as abuse reports are: per user and per
 * client address, every request that reaches the throttle counts.
 */
export class SupportService {
  private readonly rates: readonly [AbuseRate, AbuseRate];

  constructor(
    private readonly fork: () => EntityManager,
    private readonly mailer: Mailer,
    private readonly queueMail: (tx: EntityManager, ticketId: number) => Promise<unknown>,
    private readonly options: SupportOptions,
  ) {
    this.rates = [
      { scope: 'support-user', requests: options.ticketsPerDay, seconds: DAY },
      { scope: 'support-ip', requests: options.ticketsPerDay, seconds: DAY },
    ];
  }

  /**
   * Records a ticket of the signed-in caller (the operation's `@Requires` refuses anonymous callers
   * first): the throttles, then every field at once (each text's length before anything else).
   */
  async submit(ctx: RequestContext, input: SupportTicketInput): Promise<SupportTicket> {
    const userId = ctx.viewer.userId;
    if (userId === null) throw errors.notAuthenticated();
    await this.throttle(ctx, userId);
    const fields = new FieldErrorCollector();
    const summary = requiredText(fields, 'summary', input.summary, DEVELOPERS_TEXT_LIMITS.supportSummary);
    const body = requiredText(fields, 'body', input.body, DEVELOPERS_TEXT_LIMITS.supportBody);
    const category = choice(fields, input.category);
    fields.throwIfAny();
    return ownTransaction(ctx.em, async (tx) => {
      const ticket = tx.create(SupportTicket, {
        user: tx.getReference(User, userId),
        summary: summary!,
        body: body!,
        category: category!,
        ipAddress: ctx.request.ip === null ? null : truncateText(ctx.request.ip, ABUSE_TEXT_LIMITS.abuseReporterIp),
      });
      await tx.flush();
      await this.queueMail(tx, ticket.id);
      return ticket;
    });
  }

  /** The `support-ticket-mail` job: mails a ticket not mailed yet to the support address, then marks it. */
  async mail(ticketId: number): Promise<void> {
    if (!Number.isSafeInteger(ticketId)) return;
    const em = this.fork();
    const ticket = await em.findOne(SupportTicket, ticketId, { populate: ['user'] });
    if (!ticket || ticket.mailedAt) return;
    const user = ticket.user;
    await this.mailer.send({
      to: this.options.supportEmail,
      ...(user && !user.deleted ? { replyTo: user.email } : {}),
      ...mails.supportTicket.render({
        serviceName: this.options.serviceName,
        ticketId: String(ticket.id),
        category: ticket.category,
        categoryLabel: CATEGORY_LABELS[ticket.category] ?? ticket.category,
        summary: ticket.summary,
        body: ticket.body,
        user: user
          ? `${user.username} (id ${user.id}, ${user.deleted ? 'deleted account' : user.email})`
          : 'a deleted account',
        profileUrl: user ? `${this.options.siteUrl}/api/v5/accounts/account/${user.id}/` : '-',
      }),
    });
    ticket.mailedAt = new Date();
    await em.flush();
  }

  private async throttle(ctx: RequestContext, userId: number): Promise<void> {
    let wait = (await takeAbuseThrottle(ctx.em, this.rates[0], String(userId))) ?? 0;
    if (ctx.request.ip !== null) {
      // The address's key as the abuse throttle's (an IPv6 address by its /64), within the key column.
      const key = truncateText(addressKey(ctx.request.ip), 64);
      wait = Math.max(wait, (await takeAbuseThrottle(ctx.em, this.rates[1], key)) ?? 0);
    }
    if (wait > 0) throw errors.throttled(wait);
  }
}

/** A required `CharField`: a string, its length first, then trimmed and not blank (DRF's order and messages). */
function requiredText(
  fields: FieldErrorCollector,
  field: string,
  value: string | null | undefined,
  limit: number,
): string | null {
  if (value === undefined) return fields.add(field, fieldMessages.required);
  if (value === null) return fields.add(field, fieldMessages.null);
  if (typeof value !== 'string') return fields.add(field, fieldMessages.string);
  const tooLong = lengthProblem(value, limit);
  if (tooLong) return fields.add(field, tooLong);
  if (value.includes('\0')) return fields.add(field, fieldMessages.nullCharacters);
  const text = value.trim();
  return text ? text : fields.add(field, fieldMessages.blank);
}

/** One of the categories (`policy`, `technical`, `other`). */
function choice(fields: FieldErrorCollector, value: string | null | undefined): SupportCategory | null {
  if (value === undefined) return fields.add('category', fieldMessages.required);
  if (value === null) return fields.add('category', fieldMessages.null);
  if (typeof value === 'string' && (SUPPORT_CATEGORIES as readonly string[]).includes(value)) {
    return value as SupportCategory;
  }
  // The choice is echoed in the message: a long value is cut (it matches no choice anyway).
  return fields.add('category', fieldMessages.choice(truncateText(String(value), 64)));
}
