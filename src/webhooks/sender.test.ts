import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { newWebhookSecret, postWebhook } from './sender.js';
import { checkWebhookUrl, isPublicAddress, parseWebhookUrl, UrlRefused, type UrlPolicy } from './url-guard.js';

/** The sender and the URL guard without the app: pinned addresses, redirects, bounded reads, the policy. */

let server: Server;
let port: number;
const seen: { host: string | undefined; body: string; headers: IncomingMessage['headers'] }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push({ host: req.headers.host, body: Buffer.concat(chunks).toString(), headers: req.headers });
      if (req.url === '/redirect') return void res.writeHead(302, { location: 'http://169.254.169.254/' }).end();
      if (req.url === '/big') return void res.writeHead(200).end('x'.repeat(100_000));
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const open: UrlPolicy = { allowPrivateNetworks: true, allowedHosts: [], requireHttps: false };
const strict: UrlPolicy = { allowPrivateNetworks: false, allowedHosts: [], requireHttps: false };

it('connects to the checked address, whatever the host name resolves to now (no DNS rebinding)', async () => {
  const secret = newWebhookSecret();
  // `rebind.invalid` resolves to nothing: the request still reaches the address checked before.
  const target = { url: new URL(`http://rebind.invalid:${port}/hook`), address: '127.0.0.1', family: 4 as const };
  const result = await postWebhook(target, { id: 'msg_1', body: '{"type":"webhook.test"}', secret }, 2_000);
  expect(result).toMatchObject({ ok: true, statusCode: 204 });
  const request = seen.at(-1)!;
  expect(request.host).toBe(`rebind.invalid:${port}`);
  expect(new Webhook(secret).verify(request.body, request.headers as Record<string, string>)).toEqual({
    type: 'webhook.test',
  });
});

it('does not follow redirects, and reads a bounded part of the answer', async () => {
  const secret = newWebhookSecret();
  const checked = await checkWebhookUrl(`http://127.0.0.1:${port}/redirect`, open);
  const redirected = await postWebhook(checked, { id: 'msg_2', body: '{}', secret }, 2_000);
  expect(redirected).toMatchObject({ ok: false, statusCode: 302, error: 'HTTP 302' });
  const big = await postWebhook(
    await checkWebhookUrl(`http://127.0.0.1:${port}/big`, open),
    { id: 'msg_3', body: '{}', secret },
    2_000,
  );
  expect(big.ok).toBe(true);
  expect(big.excerpt).toHaveLength(1024);
});

it('a network error is a failed attempt, not an exception', async () => {
  const closed = { url: new URL('http://127.0.0.1:1/'), address: '127.0.0.1', family: 4 as const };
  const result = await postWebhook(closed, { id: 'msg_4', body: '{}', secret: newWebhookSecret() }, 2_000);
  expect(result).toMatchObject({ ok: false, statusCode: null, error: expect.stringMatching(/ECONNREFUSED/) });
});

it('refuses private addresses unless allowed, by setting or by host name', async () => {
  await expect(checkWebhookUrl('http://localhost/', strict)).rejects.toThrow(UrlRefused);
  await expect(checkWebhookUrl('http://localhost/', { ...strict, allowedHosts: ['localhost'] })).resolves.toMatchObject(
    { address: '127.0.0.1' },
  );
  for (const address of ['127.0.0.1', '10.1.2.3', '172.31.0.1', '169.254.169.254', '::1', 'fd00::1', '::ffff:7f00:1']) {
    expect([address, isPublicAddress(address)]).toEqual([address, false]);
  }
  for (const address of ['93.184.216.34', '2606:4700::1111', '8.8.8.8']) {
    expect([address, isPublicAddress(address)]).toEqual([address, true]);
  }
});

it('requires https when configured (production default)', () => {
  const https = { ...strict, requireHttps: true };
  expect(() => parseWebhookUrl('http://example.com/hook', https)).toThrow('Only https URLs.');
  expect(parseWebhookUrl('https://example.com/hook', https).href).toBe('https://example.com/hook');
});

it('refuses site-local, 6to4 and Teredo addresses (the last two embed IPv4 addresses such as 127.0.0.1)', async () => {
  const embedding = [
    'fec0::1', // site-local
    'feff:ffff::1', // site-local's last address (fec0::/10)
    '2002:7f00:1::1', // 6to4 of 127.0.0.1
    '2002:a9fe:a9fe::', // 6to4 of 169.254.169.254
    '2001:0:4136:e378:8000:63bf:80ff:fffe', // Teredo whose client is 127.0.0.1 (bits inverted)
    '2001::1',
  ];
  for (const address of embedding) expect([address, isPublicAddress(address)]).toEqual([address, false]);
  // Just outside each range: public.
  for (const address of ['2003::1', '2001:1::1', '2001:4860:4860::8888', 'fbff::1']) {
    expect([address, isPublicAddress(address)]).toEqual([address, true]);
  }
  await expect(checkWebhookUrl('http://[2002:7f00:1::1]:8080/hook', strict)).rejects.toThrow(
    /private, loopback or reserved/,
  );
  await expect(checkWebhookUrl('http://[fec0::1]/hook', strict)).rejects.toThrow(UrlRefused);
  await expect(checkWebhookUrl('http://[2001::7f00:1]/hook', strict)).rejects.toThrow(UrlRefused);
});
