import assert from 'node:assert/strict';
import type http from 'node:http';
import {
  AuthenticationError,
  createClient,
  InsufficientCreditsError,
  NotFoundError,
  RateLimitError,
  verifyStandardWebhook,
  verifyWebhook,
  WebhookVerificationError,
  type Generation,
} from '../../clients/typescript/src/index';
import { call, createOrganization, waitFor, type TestOrganization } from '../helpers/http';
import { assertLedgerBalanced, ledgerKinds } from '../helpers/ledger';
import { stack } from '../helpers/stack';
import { startHttpsServer } from '../helpers/tls';

// The TypeScript client (clients/typescript) against the running service: every modality, a
// comparison to its verdict, pagination, a signed webhook verified by verifyWebhook and
// verifyStandardWebhook, a retried
// creation charged once, and the service's 402 and 429 as the client's typed errors.

const clientFor = (org: TestOrganization, extra: Partial<Parameters<typeof createClient>[0]> = {}) => createClient({ apiKey: org.liveKey, baseUrl: stack().apiUrl, ...extra });
const QUICK = { pollIntervalMs: 100, timeoutMs: 30_000 };

describe('the TypeScript client against the service', function () {
  this.timeout(90_000);

  it('calls the global fetch as a plain function, as a browser requires (its fetch throws "Illegal invocation" when called as a method)', async () => {
    const org = await createOrganization();
    const nodeFetch = globalThis.fetch;
    // A browser's fetch refuses any `this` but the window: stand one in for the global fetch.
    const browserLikeFetch = function (this: unknown, input: Parameters<typeof fetch>[0], init?: RequestInit) {
      if (this !== undefined && this !== globalThis) throw new TypeError("Failed to execute 'fetch' on 'Window': Illegal invocation");
      return nodeFetch(input, init);
    };
    globalThis.fetch = browserLikeFetch as typeof fetch;
    try {
      const balance = await clientFor(org).balance.get();
      assert.equal(balance.livemode, true);
    } finally {
      globalThis.fetch = nodeFetch;
    }
  });

  it('creates one generation of every modality and waits each to succeeded', async () => {
    const org = await createOrganization();
    const client = clientFor(org);
    const image = await client.images.create({ model: 'flux-schnell', prompt: 'a lighthouse' });
    const imageUrl = image.outputs[0]!.url;
    const created: Generation[] = [
      image,
      await client.videos.create({ model: 'hailuo-02', prompt: 'surf at dawn', duration_s: 6, aspect_ratio: '9:16' }),
      await client.voice.create({ model: 'openai-tts-1', text: 'Hello from the client.' }),
      await client.music.create({ model: 'minimax-music-v2', prompt: 'lofi beat', duration_s: 20, with_vocals: true }),
      await client.avatars.create({ model: 'veed-avatars', text: 'Hello from an avatar.', avatar_id: 'ava_emily' }),
      (await client.chat.create({ model: 'gpt-5-mini', messages: [{ content: 'Say something #tokens:20' }], max_tokens: 100 })) as Generation,
      await client.threeD.create({ model: 'tripo-v2.5-text', prompt: 'a teapot', texture_size: '1024', mesh_complexity: 'low' }),
      await client.upscale.create({ model: 'real-esrgan', image_url: imageUrl }),
    ];
    const finished = await Promise.all(created.map((g) => client.generations.wait(g.id, QUICK)));
    assert.deepEqual(
      finished.map((g) => [g.modality, g.status]),
      ['image', 'video', 'voice', 'music', 'avatar', 'chat', '3d', 'upscale'].map((m) => [m, 'succeeded']),
    );
    await assertLedgerBalanced(org.id);
  });

  it('runs a comparison to its verdict with comparisons.wait', async () => {
    const org = await createOrganization();
    const client = clientFor(org);
    const accepted = await client.comparisons.create({ prompt: 'a red kite', models: ['flux-schnell', 'flux-dev'] });
    assert.equal(accepted.status, 'queued');
    const verdict = await client.comparisons.wait(accepted.id, QUICK);
    assert.equal(verdict.status, 'succeeded');
    assert.deepEqual(verdict.generations.map((g) => g.status).sort(), ['succeeded', 'succeeded']);
    await assertLedgerBalanced(org.id);
  });

  it('lists generations across several pages with one async iterator', async () => {
    const org = await createOrganization();
    let pages = 0;
    const client = clientFor(org, {
      fetch: (input, init) => {
        if (new URL((input as Request).url).pathname === '/v1/generations') pages++;
        return fetch(input, init);
      },
    });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await client.images.create({ model: 'flux-schnell', prompt: `page ${i}` })).id);
    const listed: string[] = [];
    for await (const generation of client.generations.list({ modality: 'image', limit: '2' })) listed.push(generation.id);
    assert.deepEqual([...listed].sort(), [...ids].sort());
    assert.equal(pages, 3, 'five generations two to a page are three pages');
    await assertLedgerBalanced(org.id);
  });

  it('receives a signed webhook that verifyWebhook and verifyStandardWebhook accept with either secret after a rotation, and refuse when tampered with', async () => {
    const org = await createOrganization();
    const client = clientFor(org);
    const received: { signature: string; headers: http.IncomingHttpHeaders; body: string }[] = [];
    const receiver = await startHttpsServer(stack().receiverCertificate, (req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        received.push({ signature: String(req.headers['x-service-signature']), headers: req.headers, body });
        res.writeHead(200).end('ok');
      });
    });
    try {
      const hook = await client.webhooks.create({ url: `https://127.0.0.1:${receiver.port}/hook`, events: ['generation.completed'] });
      const rotated = await client.webhooks.rotateSecret(hook.id);
      const generation = await client.images.create({ model: 'flux-schnell', prompt: 'hooked' });
      await waitFor(async () => received.length >= 1, 20_000, 'the delivery');
      const { signature, headers, body } = received[0]!;

      const event = verifyWebhook(body, signature, rotated.secret);
      assert.equal(event.type, 'generation.completed');
      assert.equal((event.data as { generation_id: string }).generation_id, generation.id);
      assert.equal(verifyWebhook(body, signature, hook.secret).type, 'generation.completed', 'the secret before the rotation still verifies');
      assert.throws(() => verifyWebhook(body.replace(generation.id, 'gen_forged'), signature, [rotated.secret, hook.secret]), WebhookVerificationError);
      assert.throws(() => verifyWebhook(body, signature, 'whsec_not_the_secret'), WebhookVerificationError);
      assert.throws(() => verifyWebhook(body, signature, rotated.secret, { now: Math.floor(Date.now() / 1000) + 301 }), /300 s/);

      // The same delivery's Standard Webhooks headers: both secrets of the rotation sign.
      assert.equal(String(headers['webhook-signature']).split(' ').length, 2, 'one signature per live secret');
      assert.equal(verifyStandardWebhook(body, headers, rotated.secret).id, event.id, 'webhook-id is the event id');
      assert.equal(verifyStandardWebhook(body, headers, hook.secret).id, event.id, 'the secret before the rotation still verifies');
      assert.throws(() => verifyStandardWebhook(body.replace(generation.id, 'gen_forged'), headers, [rotated.secret, hook.secret]), WebhookVerificationError);
      assert.throws(() => verifyStandardWebhook(body, { ...headers, 'webhook-id': 'evt_forged' }, rotated.secret), WebhookVerificationError);
      assert.throws(() => verifyStandardWebhook(body, headers, rotated.secret, { now: Math.floor(Date.now() / 1000) + 301 }), /300 s/);
    } finally {
      await receiver.close();
    }
  });

  it('reads the events feed (events.list filtered by type, events.get) and re-enables a webhook its receiver disabled with 410 Gone (webhooks.update)', async () => {
    const org = await createOrganization();
    const client = clientFor(org);
    const receiver = await startHttpsServer(stack().receiverCertificate, (req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(410).end('gone'));
    });
    try {
      const hook = await client.webhooks.create({ url: `https://127.0.0.1:${receiver.port}/hook`, events: ['generation.completed'] });
      const generation = await client.images.create({ model: 'flux-schnell', prompt: 'fed' });
      const listed = await waitFor(
        async () => {
          const seen: { id: string; type: string; data: unknown }[] = [];
          for await (const event of client.events.list({ type: 'generation.completed' })) seen.push(event);
          return seen.length ? seen : undefined;
        },
        20_000,
        'the event in the feed',
      );
      assert.deepEqual(
        listed.map((e) => [e.type, (e.data as { generation_id: string }).generation_id]),
        [['generation.completed', generation.id]],
      );
      assert.deepEqual(await client.events.get(listed[0]!.id), listed[0]);
      assert.equal((await collect(client.events.list({ type: 'generation.failed' }))).length, 0);

      await waitFor(async () => (await client.webhooks.get(hook.id)).status === 'disabled', 20_000, 'the 410 to disable the webhook');
      const enabled = await client.webhooks.update(hook.id, { status: 'enabled' });
      assert.deepEqual([enabled.status, enabled.disabled_reason], ['enabled', null]);
      assert.equal((await client.webhooks.get(hook.id)).status, 'enabled');
    } finally {
      await receiver.close();
    }
  });

  it('retries a creation whose answer was lost with the same Idempotency-Key, and the wallet is charged once', async () => {
    const org = await createOrganization({ credits: 10_000 });
    const keys: string[] = [];
    let lost = false;
    const client = clientFor(org, {
      fetch: async (input, init) => {
        const request = input as Request;
        if (request.method === 'POST') keys.push(request.headers.get('idempotency-key') ?? '');
        const response = await fetch(input, init);
        if (request.method === 'POST' && !lost) {
          // The service did the work; the answer never reaches the caller.
          lost = true;
          await response.body?.cancel();
          throw new TypeError('fetch failed: socket hang up');
        }
        return response;
      },
    });
    const before = await client.balance.get();
    const generation = await client.images.create({ model: 'flux-schnell', prompt: 'once only' });
    assert.equal(keys.length, 2, 'one attempt and one retry');
    assert.match(keys[0]!, /^[0-9a-f-]{36}$/);
    assert.equal(keys[1], keys[0]);
    const after = await client.balance.get();
    assert.equal(before.available_credits - after.available_credits, generation.charged_credits);
    assert.deepEqual(await ledgerKinds(generation.id), ['reserve', 'capture']);
    const all = [];
    for await (const g of client.generations.list()) all.push(g.id);
    assert.deepEqual(all, [generation.id]);
    await assertLedgerBalanced(org.id);
  });

  it('passes models, balance, usage, API keys, webhooks and comparison lists through, typed', async () => {
    const org = await createOrganization();
    const client = clientFor(org);
    const videoModels = await client.models.list({ modality: 'video' });
    assert.ok(videoModels.data.length > 0 && videoModels.data.every((m) => m.modality === 'video'));
    assert.equal((await client.balance.get()).organization_id, org.id);

    const key = await client.apiKeys.create({ name: 'from the client', scopes: ['generations:read'] });
    assert.match(key.secret, /^sk_live_/);
    assert.equal((await client.apiKeys.update(key.id, { name: 'renamed' })).name, 'renamed');
    const keys = [];
    for await (const k of client.apiKeys.list()) keys.push(k.name);
    assert.ok(keys.includes('renamed'));
    await client.apiKeys.revoke(key.id);
    const revoked = await createClient({ apiKey: key.secret, baseUrl: stack().apiUrl })
      .balance.get()
      .then(
        () => assert.fail('a revoked key must be refused'),
        (e: unknown) => e,
      );
    assert.ok(revoked instanceof AuthenticationError, String(revoked));

    const hook = await client.webhooks.create({ url: 'https://127.0.0.1:9/hook', events: ['comparison.completed'] });
    assert.equal((await client.webhooks.get(hook.id)).url, hook.url);
    const hooks = [];
    for await (const h of client.webhooks.list()) hooks.push(h.id);
    assert.deepEqual(hooks, [hook.id]);
    const deliveries = [];
    for await (const d of client.webhooks.deliveries(hook.id)) deliveries.push(d);
    assert.deepEqual(deliveries, []);
    await client.webhooks.delete(hook.id);
    await assert.rejects(client.webhooks.get(hook.id), NotFoundError);

    const comparison = await client.comparisons.create({ prompt: 'two kites', models: ['flux-schnell', 'flux-dev'] });
    await client.comparisons.wait(comparison.id, QUICK);
    const comparisons = [];
    for await (const c of client.comparisons.list()) comparisons.push(c.id);
    assert.deepEqual(comparisons, [comparison.id]);
    const usage = await client.usage.get({ group_by: 'model' });
    assert.ok(
      usage.data.some((row) => row.key === 'flux-schnell'),
      JSON.stringify(usage),
    );
    assert.match(await client.usage.csv({ group_by: 'model' }), /flux-schnell/);
    await assertLedgerBalanced(org.id);
  });

  it('raises a 402 as InsufficientCreditsError, with the error body’s fields', async () => {
    const org = await createOrganization({ credits: 0 });
    const error = await clientFor(org)
      .images.create({ model: 'flux-schnell', prompt: 'no money' })
      .then(
        () => assert.fail('expected a 402'),
        (e: unknown) => e,
      );
    assert.ok(error instanceof InsufficientCreditsError, String(error));
    assert.deepEqual([error.status, error.type, error.code], [402, 'billing_error', 'insufficient_credits']);
    assert.match(error.requestId ?? '', /\S/);
    await assertLedgerBalanced(org.id);
  });

  it('raises a 429 as RateLimitError carrying Retry-After once its retries are spent', async () => {
    const org = await createOrganization();
    const patched = await call('PATCH', `/admin/v1/organizations/${org.id}`, { key: stack().adminToken, body: { rate_limit_per_minute: 1 } });
    assert.equal(patched.status, 200);
    const client = clientFor(org, { maxRetries: 0 });
    await client.balance.get();
    const error = await client.balance.get().then(
      () => assert.fail('expected a 429'),
      (e: unknown) => e,
    );
    assert.ok(error instanceof RateLimitError, String(error));
    assert.deepEqual([error.status, error.type, error.code], [429, 'rate_limit_error', 'rate_limited']);
    assert.ok(error.retryAfter !== undefined && error.retryAfter > 0, `retryAfter ${error.retryAfter}`);
  });
});

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}
