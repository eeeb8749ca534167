/** One outgoing message: plain text, UTF-8. `subject` and the addresses are single header lines. */
export interface OutgoingMail {
  to: string;
  replyTo?: string;
  subject: string;
  text: string;
}

/**
 * Outgoing mail. Adapters: `DirectoryMailer` (RFC 5322 files in DATA_DIR/mail/outbox, the default)
 * and `SmtpMailer` (SMTP_URL). Senders run from the job queue (domain events): a send that fails
 * throws, and the queue retries it. Texts come from the templates in `templates.ts`.
 */
export interface Mailer {
  send(mail: OutgoingMail): Promise<void>;
}
