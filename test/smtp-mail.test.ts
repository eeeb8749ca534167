import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { Version } from '../src/catalogue/version.entity.js';
import { startTestApp, type TestApp } from './helpers/app.js';
import { createAddon } from './helpers/catalogue.js';
import { call } from './helpers/ratings.js';

/**
 * Outgoing mail through SMTP (issue 12, item 5): with SMTP_URL set, the service's mail goes to
 * that server (here a real SMTP server in the test process). A sender whose server is down fails,
 * so the job queue retries it: nothing is lost.
 */

interface Received {
  from: string;
  to: string[];
  data: string;
}

let smtp: SMTPServer;
let port: number;
const received: Received[] = [];
let t: TestApp;

function startSmtp(listenPort = 0): Promise<number> {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, done) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          data: Buffer.concat(chunks).toString('utf8'),
        });
        done();
      });
    },
  });
  return new Promise((resolve) =>
    smtp.listen(listenPort, '127.0.0.1', () => resolve((smtp.server.address() as AddressInfo).port)),
  );
}

const stopSmtp = () => new Promise<void>((resolve) => smtp.close(() => resolve()));

beforeAll(async () => {
  port = await startSmtp();
  t = await startTestApp({
    env: {
      JOB_WORKERS: 'false',
      SITE_URL: 'http://addons.test',
      SMTP_URL: `smtp://127.0.0.1:${port}`,
      MAIL_FROM: 'reviews@addons.test',
    },
  });
}, 120_000);
afterAll(async () => {
  await t?.close();
  await stopSmtp().catch(() => {});
});

it('sends the service’s mail through the SMTP server, and fails (to be retried) while it is down', async () => {
  const fan = await t.createUser({ session: true, permission: ['Addons:Review'] });
  const addon = await createAddon(t.em(), { versions: [{ version: '3.1.4' }] });
  const [version] = await t.em().find(Version, { addon: addon.id });
  const subscribed = await call(t, 'post', `/api/v4/reviewers/addon/${addon.id}/subscribe_listed/`, {
    id: fan.id,
    token: fan.sessionToken!,
  });
  expect(subscribed.status).toBe(202);
  const deliver = () =>
    t.app.services.events.deliver({
      subscriber: 'reviewer-subscriptions',
      event: {
        id: `smtp-${version.id}`,
        type: 'version.validated',
        data: { addonId: addon.id, uploadId: 'test', valid: true, versionId: version.id },
        occurredAt: new Date().toISOString(),
        actorId: null,
      },
    });

  await deliver();
  expect(received).toHaveLength(1);
  expect(received[0].from).toBe('reviews@addons.test');
  expect(received[0].to).toEqual([fan.email]);
  expect(received[0].data).toMatch(/^Subject: .* updated$/m);
  expect(received[0].data).toContain('3.1.4');

  // The server goes away: the delivery fails, so the queue keeps the job and tries again later.
  await stopSmtp();
  await expect(deliver()).rejects.toThrow();
  expect(received).toHaveLength(1);
  // Back on the same port: the retried delivery goes through.
  await startSmtp(port);
  await deliver();
  expect(received).toHaveLength(2);
  expect(received[1].to).toEqual([fan.email]);
}, 60_000);
