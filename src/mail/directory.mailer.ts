import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '../core/logger.js';
import type { Mailer, OutgoingMail } from './mailer.port.js';

/** Messages as `.eml` files under `dir` (DATA_DIR/mail/outbox), for a relay or a human to pick up. */
export class DirectoryMailer implements Mailer {
  constructor(
    private readonly dir: string,
    private readonly from: string,
    private readonly logger: Logger,
  ) {}

  async send(mail: OutgoingMail): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    const id = randomUUID();
    const headers = [
      `From: ${this.from}`,
      `To: ${oneLine(mail.to)}`,
      ...(mail.replyTo ? [`Reply-To: ${oneLine(mail.replyTo)}`] : []),
      `Subject: ${encodeHeader(oneLine(mail.subject))}`,
      `Date: ${new Date().toUTCString()}`,
      `Message-ID: <${id}@${this.from.split('@').pop()}>`,
      'MIME-Version: 1.0',
      'Content-Type: text/plain; charset=utf-8',
      'Content-Transfer-Encoding: 8bit',
    ];
    await writeFile(join(this.dir, `${Date.now()}-${id}.eml`), `${headers.join('\r\n')}\r\n\r\n${mail.text}\r\n`, {
      mode: 0o600,
    });
    this.logger.info({ to: mail.to, subject: mail.subject }, 'mail queued in outbox');
  }
}

const oneLine = (value: string) => value.replace(/[\r\n]+/g, ' ');

/** RFC 2047 for non-ASCII subjects. */
function encodeHeader(value: string): string {
  return /^[\x20-\x7e]*$/.test(value) ? value : `=?UTF-8?B?${Buffer.from(value).toString('base64')}?=`;
}
