import type { Transporter } from 'nodemailer';
import type { Logger } from '../core/logger.js';
import type { Mailer, OutgoingMail } from './mailer.port.js';

/**
 * Outgoing mail through an SMTP server (nodemailer), when SMTP_URL is set:
 * `smtp://user:pass@host:587` (STARTTLS when offered) or `smtps://…:465`. A failure throws: the
 * senders run from the job queue (domain events), which retries them, so no mail is lost while the
 * server is down. nodemailer is loaded with the first mail, not at every start.
 */
export class SmtpMailer implements Mailer {
  #transport: Promise<Transporter> | null = null;

  constructor(
    private readonly url: string,
    private readonly from: string,
    private readonly logger: Logger,
  ) {}

  private transport(): Promise<Transporter> {
    this.#transport ??= import('nodemailer').then(({ default: nodemailer }) =>
      nodemailer.createTransport(this.url, {
        connectionTimeout: 10_000,
        greetingTimeout: 10_000,
        socketTimeout: 30_000,
      }),
    );
    return this.#transport;
  }

  async send(mail: OutgoingMail): Promise<void> {
    const transport = await this.transport();
    await transport.sendMail({
      from: this.from,
      to: mail.to,
      ...(mail.replyTo ? { replyTo: mail.replyTo } : {}),
      subject: mail.subject,
      text: mail.text,
    });
    this.logger.info({ to: mail.to, subject: mail.subject }, 'mail sent');
  }

  close(): void {
    void this.#transport?.then((transport) => transport.close());
  }
}
