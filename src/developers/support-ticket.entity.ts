import { Entity, ManyToOne, PrimaryKey, Property, type Opt } from '@mikro-orm/core';
import { User } from '../accounts/user.entity.js';

/** The categories of a support ticket (the original's choices). */
export const SUPPORT_CATEGORIES = ['policy', 'technical', 'other'] as const;
export type SupportCategory = (typeof SUPPORT_CATEGORIES)[number];

/**
 * A developer's support ticket (`POST /api/v5/developers/support`): kept here, and mailed to the
 * operator's support address (SUPPORT_EMAIL) by the `support-ticket-mail` job, which records when.
 */
@Entity({ tableName: 'support_tickets' })
export class SupportTicket {
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  /** Who asked; null once the account is deleted (the ticket stays for the operator). */
  @ManyToOne({ entity: () => User, nullable: true, deleteRule: 'set null', index: true })
  user: User | null = null;

  @Property({ type: 'string', length: 255 })
  summary!: string;

  @Property({ type: 'text' })
  body!: string;

  @Property({ type: 'string', length: 16 })
  category!: SupportCategory;

  /** The client's address when it was sent (not shown by the APIs). */
  @Property({ type: 'string', length: 45, nullable: true })
  ipAddress: string | null = null;

  @Property({ type: 'timestamptz', defaultRaw: 'now()' })
  created: Opt<Date> = new Date();

  /** When the mail to the support address was sent (null: not yet). */
  @Property({ type: 'timestamptz', nullable: true })
  mailedAt: Date | null = null;
}
