import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ConnectionError, createClient, RateLimitError, ServerError, WaitTimeoutError } from '../../clients/typescript/src/index';

// The TypeScript client's transport against a local fake of the service (the provider-style
// double the house rules allow for what the stack cannot be made to do on cue): a 429 or 503 then
// a 200, to see Retry-After honoured and the idempotency key kept across the retry.

interface Seen {
  method: string;
  idempotencyKey: string | undefined;
  at: number;
}

const generation = (status: string) => ({ id: 'gen_fake', object: 'generation', status });

async function fakeService(answers: { status: number; headers?: Record<string, string>; body: unknown }[]) {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      seen.push({ method: req.method!, idempotencyKey: req.headers['idempotency-key'] as string | undefined, at: Date.now() });
      const answer = answers[Math.min(seen.length - 1, answers.length - 1)]!;
      res.writeHead(answer.status, { 'Content-Type': 'application/json', ...answer.headers }).end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, close };
}

const rateLimited = {
  status: 429,
  headers: { 'Retry-After': '1' },
  body: { error: { type: 'rate_limit_error', code: 'rate_limited', message: 'slow down', request_id: 'req_1' } },
};

describe('the TypeScript client’s retries', function () {
  this.timeout(20_000);

  it('waits the Retry-After of a 429 and retries the POST with the same Idempotency-Key', async () => {
    const fake = await fakeService([rateLimited, { status: 200, body: generation('succeeded') }]);
    try {
      const client = createClient({ apiKey: 'sk_test_x', baseUrl: fake.baseUrl });
      const created = await client.images.create({ model: 'flux-schnell', prompt: 'p' });
      assert.equal(created.status, 'succeeded');
      assert.equal(fake.seen.length, 2);
      assert.ok(fake.seen[1]!.at - fake.seen[0]!.at >= 950, `retried after ${fake.seen[1]!.at - fake.seen[0]!.at} ms`);
      assert.match(fake.seen[0]!.idempotencyKey ?? '', /^[0-9a-f-]{36}$/);
      assert.equal(fake.seen[1]!.idempotencyKey, fake.seen[0]!.idempotencyKey);
    } finally {
      await fake.close();
    }
  });

  it('sends the caller’s own idempotency key, and retries a 503', async () => {
    const unavailable = {
      status: 503,
      headers: { 'Retry-After': '0' },
      body: { error: { type: 'api_error', code: 'service_unavailable', message: 'later', request_id: 'req_2' } },
    };
    const fake = await fakeService([unavailable, { status: 202, body: generation('queued') }]);
    try {
      const client = createClient({ apiKey: 'sk_test_x', baseUrl: fake.baseUrl });
      await client.videos.create({ model: 'hailuo-02', prompt: 'p' }, { idempotencyKey: 'my-key-1' });
      assert.deepEqual(
        fake.seen.map((s) => s.idempotencyKey),
        ['my-key-1', 'my-key-1'],
      );
    } finally {
      await fake.close();
    }
  });

  it('gives up after maxRetries with the typed error of the last answer', async () => {
    const fake = await fakeService([{ ...rateLimited, headers: { 'Retry-After': '0' } }]);
    try {
      const client = createClient({ apiKey: 'sk_test_x', baseUrl: fake.baseUrl, maxRetries: 2 });
      await assert.rejects(client.balance.get(), (e: unknown) => e instanceof RateLimitError && e.requestId === 'req_1' && e.retryAfter === 0);
      assert.equal(fake.seen.length, 3);
      assert.ok(
        fake.seen.every((s) => s.idempotencyKey === undefined),
        'a GET carries no idempotency key',
      );
    } finally {
      await fake.close();
    }
  });

  it('does not wait out a Retry-After longer than a minute: the caller gets the RateLimitError at once', async () => {
    const fake = await fakeService([
      { ...rateLimited, headers: { 'Retry-After': '3600' } },
      { status: 200, body: generation('succeeded') },
    ]);
    try {
      const client = createClient({ apiKey: 'sk_test_x', baseUrl: fake.baseUrl });
      await assert.rejects(client.generations.get('gen_fake'), (e: unknown) => e instanceof RateLimitError && e.retryAfter === 3600);
      assert.equal(fake.seen.length, 1);
    } finally {
      await fake.close();
    }
  });

  it('raises a 500 as ServerError without retrying it', async () => {
    const fake = await fakeService([{ status: 500, body: { error: { type: 'api_error', code: 'internal_error', message: 'boom', request_id: 'req_3' } } }]);
    try {
      const client = createClient({ apiKey: 'sk_test_x', baseUrl: fake.baseUrl });
      await assert.rejects(client.generations.get('gen_fake'), ServerError);
      assert.equal(fake.seen.length, 1);
    } finally {
      await fake.close();
    }
  });

  it('times out an attempt that gets no answer, retries it once per maxRetries, then raises ConnectionError', async () => {
    let attempts = 0;
    const server = http.createServer(() => attempts++); // never answers
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const client = createClient({ apiKey: 'sk_test_x', baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, timeoutMs: 200, maxRetries: 1 });
      await assert.rejects(client.balance.get(), ConnectionError);
      assert.equal(attempts, 2);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('stops waiting with WaitTimeoutError when the generation stays running past timeoutMs', async () => {
    const fake = await fakeService([{ status: 200, body: generation('running') }]);
    try {
      const client = createClient({ apiKey: 'sk_test_x', baseUrl: fake.baseUrl });
      await assert.rejects(
        client.generations.wait('gen_fake', { timeoutMs: 300, pollIntervalMs: 50 }),
        (e: unknown) => e instanceof WaitTimeoutError && (e.last as { status: string }).status === 'running',
      );
      assert.ok(fake.seen.length >= 3, `polled ${fake.seen.length} times`);
    } finally {
      await fake.close();
    }
  });
});
