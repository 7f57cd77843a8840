import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sendWebhook, MAX_RESPONSE_BODY_BYTES } from '../../activities/webhooks/send-webhook';
import { vetWebhookUrl } from '../../lib/webhook-url';
import { stack } from '../helpers/stack';
import { startHttpsServer } from '../helpers/tls';

// One delivery attempt against real local https receivers. Receivers run on 127.0.0.1, so the
// address rule is exercised through the DNS seam: `receiver.test` resolves to whatever a test says.

type Handler = Parameters<typeof startHttpsServer>[1];

async function withReceiver(handler: Handler, fn: (port: number, hits: () => number, connections: () => number) => Promise<void>) {
  let hits = 0;
  const server = await startHttpsServer(stack().receiverCertificate, (req, res) => {
    hits += 1;
    handler(req, res);
  });
  try {
    await fn(server.port, () => hits, server.connections);
  } finally {
    await server.close();
  }
}

const base = () => ({ body: '{"id":"evt_1"}', headers: { 'Content-Type': 'application/json' }, timeoutMs: 2_000, extraCa: stack().receiverCertificate.cert });

describe('a webhook attempt', function () {
  this.timeout(20_000);

  it('is delivered on a 2xx and keeps the answer', async () => {
    await withReceiver(
      (req, res) => {
        let body = '';
        req.on('data', (c: Buffer) => (body += c.toString()));
        req.on('end', () => void res.writeHead(200).end(`got ${body}`));
      },
      async (port) => {
        const result = await sendWebhook({ ...base(), url: `https://127.0.0.1:${port}/hook`, allowPrivateAddresses: true });
        assert.deepEqual([result.delivered, result.statusCode, result.error, result.responseBody], [true, 200, null, 'got {"id":"evt_1"}']);
      },
    );
  });

  it('fails on a redirect, and does not follow it', async () => {
    let followed = false;
    await withReceiver(
      (req, res) => {
        if (req.url === '/elsewhere') followed = true;
        res.writeHead(302, { Location: '/elsewhere' }).end();
      },
      async (port) => {
        const result = await sendWebhook({ ...base(), url: `https://127.0.0.1:${port}/hook`, allowPrivateAddresses: true });
        assert.equal(result.delivered, false);
        assert.equal(result.statusCode, 302);
        assert.match(result.error ?? '', /redirects are not followed/);
        assert.equal(followed, false);
      },
    );
  });

  it('fails when the receiver does not answer within the timeout', async () => {
    await withReceiver(
      () => undefined,
      async (port) => {
        const started = Date.now();
        const result = await sendWebhook({ ...base(), timeoutMs: 500, url: `https://127.0.0.1:${port}/hook`, allowPrivateAddresses: true });
        assert.equal(result.delivered, false);
        assert.match(result.error ?? '', /no answer within 500 ms/);
        assert.ok(Date.now() - started < 2_000, 'it gave up at the timeout');
      },
    );
  });

  it('keeps a binary answer as a byte-accurate preview a text column takes: U+0000 and bytes that are not UTF-8 as \\xNN', async () => {
    // A binary error page: NUL, an invalid byte, a valid two-byte character, a truncated sequence.
    const answer = Buffer.from([0x3c, 0x00, 0x62, 0xff, 0xc3, 0xa9, 0x0a, 0xe2, 0x82]);
    await withReceiver(
      (_req, res) => void res.writeHead(502).end(answer),
      async (port) => {
        const result = await sendWebhook({ ...base(), url: `https://127.0.0.1:${port}/hook`, allowPrivateAddresses: true });
        assert.equal(result.statusCode, 502);
        assert.equal(result.responseBody, '<\\x00b\\xff\u00e9\n\\xe2\\x82');
      },
    );
  });

  it('keeps at most 64 KiB of the answer', async () => {
    await withReceiver(
      (_req, res) => void res.writeHead(500).end('x'.repeat(200_000)),
      async (port) => {
        const result = await sendWebhook({ ...base(), url: `https://127.0.0.1:${port}/hook`, allowPrivateAddresses: true });
        assert.equal(result.delivered, false);
        assert.equal(result.responseBody?.length, MAX_RESPONSE_BODY_BYTES);
      },
    );
  });

  it('is refused, sending nothing, when the host resolves to a private address, even if it resolved to a public one before', async () => {
    await withReceiver(
      (_req, res) => void res.writeHead(200).end(),
      async (port, hits) => {
        let lookups = 0;
        // The first answer is public (a documentation address nobody listens on), the next private.
        const lookup = async () => (++lookups === 1 ? [{ address: '192.0.2.10', family: 4 }] : [{ address: '127.0.0.1', family: 4 }]);
        const url = `https://receiver.test:${port}/hook`;
        assert.equal(await vetWebhookUrl(url, { allowPrivateAddresses: false, lookup: async () => [{ address: '93.184.216.34', family: 4 }] }), undefined);
        const first = await sendWebhook({ ...base(), timeoutMs: 300, url, allowPrivateAddresses: false, lookup });
        assert.equal(first.delivered, false);
        const second = await sendWebhook({ ...base(), url, allowPrivateAddresses: false, lookup });
        assert.equal(second.delivered, false);
        assert.match(second.error ?? '', /resolves to a private or reserved address \(127\.0\.0\.1\)/);
        assert.equal(hits(), 0, 'the receiver on 127.0.0.1 was never reached');
      },
    );
  });
});

describe('webhook connections', function () {
  this.timeout(20_000);

  it('are kept open for the next attempt to the same receiver, at the address vetted for it and no other', async () => {
    await withReceiver(
      (_req, res) => void res.writeHead(200).end(),
      async (port, hits, connections) => {
        let answer = '127.0.0.1';
        const lookup = async () => [{ address: answer, family: 4 }];
        const send = () => sendWebhook({ ...base(), url: `https://receiver.test:${port}/hook`, allowPrivateAddresses: true, lookup });
        for (let i = 0; i < 3; i++) assert.equal((await send()).delivered, true);
        assert.deepEqual([hits(), connections()], [3, 1], 'three attempts over one connection');
        // The name now resolves elsewhere (nothing listens on 127.0.0.2): the open connection to
        // 127.0.0.1 is not used for it.
        answer = '127.0.0.2';
        const moved = await send();
        assert.equal(moved.delivered, false);
        assert.match(moved.error ?? '', /ECONNREFUSED/);
        assert.deepEqual([hits(), connections()], [3, 1]);
      },
    );
  });

  it('retry once on a new connection when the receiver closes a kept-open one as it is reused', async () => {
    const requestsPerSocket = new Map<unknown, number>();
    await withReceiver(
      (req, res) => {
        const n = (requestsPerSocket.get(req.socket) ?? 0) + 1;
        requestsPerSocket.set(req.socket, n);
        // The race a kept-open connection can lose: the receiver closes it just as a request arrives.
        if (n === 2) req.socket.destroy();
        else res.writeHead(200).end();
      },
      async (port, hits, connections) => {
        const send = () => sendWebhook({ ...base(), url: `https://127.0.0.1:${port}/hook`, allowPrivateAddresses: true });
        assert.equal((await send()).delivered, true);
        const second = await send();
        assert.deepEqual([second.delivered, second.statusCode, second.error], [true, 200, null]);
        assert.deepEqual([hits(), connections()], [3, 2], 'the closed connection, then a new one');
      },
    );
  });
});

describe('a webhook attempt over plain http', function () {
  this.timeout(20_000);

  it('is delivered to a local receiver when private addresses are allowed, and refused, sending nothing, when they are not', async () => {
    let hits = 0;
    const server = http.createServer((req, res) => {
      hits += 1;
      req.resume().on('end', () => void res.writeHead(200).end('plain ok'));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
      const sent = await sendWebhook({ ...base(), url, allowPrivateAddresses: true });
      assert.deepEqual([sent.delivered, sent.statusCode, sent.responseBody], [true, 200, 'plain ok']);
      const refused = await sendWebhook({ ...base(), url, allowPrivateAddresses: false });
      assert.equal(refused.delivered, false);
      assert.match(refused.error ?? '', /must use https/);
      assert.equal(hits, 1);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('follows no redirect', async () => {
    let followed = false;
    const server = http.createServer((req, res) => {
      if (req.url === '/elsewhere') followed = true;
      res.writeHead(307, { Location: '/elsewhere' }).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const result = await sendWebhook({ ...base(), url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, allowPrivateAddresses: true });
      assert.deepEqual([result.delivered, result.statusCode, followed], [false, 307, false]);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

describe('a webhook URL', () => {
  const vet = (url: string) => vetWebhookUrl(url, { allowPrivateAddresses: false });

  it('must be https, without credentials', async () => {
    assert.match((await vet('http://93.184.216.34/hook'))!, /https/);
    assert.match((await vetWebhookUrl('ftp://127.0.0.1/hook', { allowPrivateAddresses: true }))!, /https/);
    assert.match((await vet('https://user:pw@93.184.216.34/hook'))!, /credentials/);
    assert.match((await vet('not a url'))!, /not a valid URL/);
  });

  it('may not resolve to loopback, private, link-local, CGNAT, metadata or other reserved addresses, v4 or v6', async () => {
    for (const host of [
      '127.0.0.1',
      '10.0.0.1',
      '192.168.1.1',
      '172.16.0.1',
      '100.64.0.1',
      '169.254.169.254',
      '0.0.0.0',
      '[::1]',
      '[::ffff:127.0.0.1]',
      '[fd00::1]',
      '[fe80::1]',
    ]) {
      assert.match((await vet(`https://${host}/hook`)) ?? 'accepted', /private or reserved/, host);
    }
  });

  it('is accepted on a public address, and with ALLOW_PRIVATE_WEBHOOK_URLS on a private one', async () => {
    assert.equal(await vet('https://93.184.216.34/hook'), undefined);
    assert.equal(await vetWebhookUrl('https://127.0.0.1/hook', { allowPrivateAddresses: true }), undefined);
    assert.equal(await vetWebhookUrl('http://localhost:3000/hook', { allowPrivateAddresses: true }), undefined);
  });
});
