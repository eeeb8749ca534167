import nodemailer, { type Transporter } from 'nodemailer';
import type { Logger } from '../core/logger.js';
import type { Mailer, OutgoingMail } from './mailer.port.js';

/**
 * Outgoing mail through an SMTP server (nodemailer), when SMTP_URL is set:
 * `smtp://user:pass@host:587` (STARTTLS when offered) or `smtps://…:465`. A failure throws: the
 * senders run from the job queue (domain events), which retries them, so no mail is lost while the
 * server is down.
 */
export class SmtpMailer implements Mailer {
  private readonly transport: Transporter;

  constructor(
    url: string,
    private readonly from: string,
    private readonly logger: Logger,
  ) {
    this.transport = nodemailer.createTransport(url, {
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 30_000,
    });
  }

  async send(mail: OutgoingMail): Promise<void> {
    await this.transport.sendMail({
      from: this.from,
      to: mail.to,
      ...(mail.replyTo ? { replyTo: mail.replyTo } : {}),
      subject: mail.subject,
      text: mail.text,
    });
    this.logger.info({ to: mail.to, subject: mail.subject }, 'mail sent');
  }

  close(): void {
    this.transport.close();
  }
}
