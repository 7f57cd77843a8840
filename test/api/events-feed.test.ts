import assert from 'node:assert/strict';
import { call, createOrganization, waitFor, type TestOrganization } from '../helpers/http';
import { createKeyWithRole } from '../helpers/keys';
import { assertLedgerBalanced } from '../helpers/ledger';
import { startExtraApi, stack } from '../helpers/stack';
import { startHttpsServer } from '../helpers/tls';

// GET /v1/events and GET /v1/events/{id} (issue 41 item 5): the envelopes webhooks deliver, for
// receivers that poll; every event here is made through the production path (generations by HTTP).

interface Envelope {
  id: string;
  type: string;
  created_at: string;
  data: Record<string, unknown>;
}

const ids = (events: Envelope[]) => events.map((e) => e.id);

/** `count` sandbox images, `concurrency` at a time; every `failEvery`-th fails (a generation.failed event). */
async function makeGenerations(key: string, count: number, failEvery = 5): Promise<string[]> {
  const made: string[] = [];
  let next = 0;
  const workers = Array.from({ length: 10 }, async () => {
    while (next < count) {
      const n = next++;
      const res = await call('POST', '/v1/images', { key, body: { model: 'flux-schnell', prompt: n % failEvery === 0 ? `feed ${n} #fail` : `feed ${n}` } });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      made.push(res.body.id);
    }
  });
  await Promise.all(workers);
  return made;
}

/** Walks the whole feed with `starting_after`, newest first. */
async function walkForward(key: string, query = ''): Promise<Envelope[]> {
  const seen: Envelope[] = [];
  for (let cursor: string | undefined, hasMore = true; hasMore;) {
    const res = await call('GET', `/v1/events?limit=100${query}${cursor ? `&starting_after=${cursor}` : ''}`, { key });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.object, 'list');
    seen.push(...res.body.data);
    hasMore = res.body.has_more;
    cursor = res.body.data.at(-1)?.id;
  }
  return seen;
}

describe('GET /v1/events', function () {
  this.timeout(300_000);

  let org: TestOrganization;
  let generations: string[];
  let forward: Envelope[];

  before(async () => {
    org = await createOrganization();
    generations = await makeGenerations(org.testKey, 250);
    forward = await walkForward(org.testKey);
  });

  it('pages through 250 events newest first without gaps or duplicates, with starting_after and back with ending_before', async () => {
    assert.equal(forward.length, 250);
    assert.equal(new Set(ids(forward)).size, 250, 'no event twice');
    assert.deepEqual(new Set(forward.map((e) => e.data.generation_id)), new Set(generations), 'one event per generation, none missing');
    for (let i = 1; i < forward.length; i++) assert.ok(forward[i - 1]!.created_at >= forward[i]!.created_at, 'newest first');

    // Back from the oldest towards the newest: each page is the one just newer than the cursor, still newest first.
    const backward: Envelope[] = [];
    for (let cursor = forward.at(-1)!.id, hasMore = true; hasMore;) {
      const res = await call('GET', `/v1/events?limit=100&ending_before=${cursor}`, { key: org.testKey });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      backward.unshift(...res.body.data);
      hasMore = res.body.has_more;
      cursor = res.body.data[0]?.id;
    }
    assert.deepEqual(ids(backward), ids(forward).slice(0, 249), 'every event but the cursor, in the same order');

    const small = await call('GET', `/v1/events?limit=7&starting_after=${forward[100]!.id}`, { key: org.testKey });
    assert.deepEqual(ids(small.body.data), ids(forward.slice(101, 108)));
    assert.equal(small.body.has_more, true);
    const nearTop = await call('GET', `/v1/events?limit=7&ending_before=${forward[3]!.id}`, { key: org.testKey });
    assert.deepEqual(ids(nearTop.body.data), ids(forward.slice(0, 3)));
    assert.equal(nearTop.body.has_more, false);
  });

  it('answers each event by id as the list does, and filters by type and creation time', async () => {
    const one = await call('GET', `/v1/events/${forward[42]!.id}`, { key: org.testKey });
    assert.equal(one.status, 200);
    assert.deepEqual(one.body, forward[42]);

    const failed = await walkForward(org.testKey, '&type=generation.failed');
    assert.equal(failed.length, 50);
    assert.deepEqual(ids(failed), ids(forward.filter((e) => e.type === 'generation.failed')));

    const [newer, older] = [forward[20]!, forward[230]!];
    const window = await walkForward(org.testKey, `&created_after=${encodeURIComponent(older.created_at)}&created_before=${encodeURIComponent(newer.created_at)}`);
    const expected = forward.filter((e) => e.created_at > older.created_at && e.created_at < newer.created_at);
    assert.ok(expected.length > 150, 'the window holds most events');
    assert.deepEqual(ids(window), ids(expected));
  });

  it("never shows another organization's events or the other environment's, and answers 404 for them by id", async () => {
    const other = await createOrganization();
    const [theirs] = await makeGenerations(other.testKey, 1, 1000);
    const theirEvents = await walkForward(other.testKey);
    assert.deepEqual(
      theirEvents.map((e) => e.data.generation_id),
      [theirs],
    );
    assert.ok(!ids(await walkForward(org.testKey)).includes(theirEvents[0]!.id));
    assert.deepEqual((await call('GET', '/v1/events', { key: org.liveKey })).body.data, [], 'the live key sees none of the test events');

    for (const [key, id] of [
      [org.testKey, theirEvents[0]!.id],
      [org.liveKey, forward[0]!.id],
      [org.testKey, 'evt_doesnotexist'],
    ] as const) {
      const res = await call('GET', `/v1/events/${id}`, { key });
      assert.equal(res.status, 404);
      assert.equal(res.body.error.code, 'resource_not_found');
    }
    const foreignCursor = await call('GET', `/v1/events?starting_after=${theirEvents[0]!.id}`, { key: org.testKey });
    assert.equal(foreignCursor.status, 404);
    assert.equal(foreignCursor.body.error.param, 'starting_after');
  });

  it('answers 400 validation_failed naming the field for bad filters', async () => {
    for (const [query, param] of [
      ['limit=0', 'limit'],
      ['limit=101', 'limit'],
      ['type=generation.started', 'type'],
      ['created_after=yesterday', 'created_after'],
      ['created_before=2026-01-01', 'created_before'],
      ['created_after=2016-12-31T23:59:60Z', 'created_after'],
      ['created_before=0000-01-01T00:00:00Z', 'created_before'],
      ['created_after=2026-02-01T00:00:00Z&created_before=2026-01-01T00:00:00Z', 'created_before'],
      [`starting_after=${forward[1]!.id}&ending_before=${forward[0]!.id}`, 'ending_before'],
      ['order=asc', 'order'],
    ]) {
      const res = await call('GET', `/v1/events?${query}`, { key: org.testKey });
      assert.equal(res.status, 400, query);
      assert.equal(res.body.error.code, 'validation_failed', query);
      assert.equal(res.body.error.param, param, query);
    }
  });

  it('is allowed with events:read or webhooks:manage, to any role, and refused (403 insufficient_role) with other scopes; reading spends nothing', async () => {
    const live = await createOrganization({ credits: 10_000 });
    const gen = await call('POST', '/v1/images', { key: live.liveKey, body: { model: 'flux-schnell', prompt: 'charged once' } });
    assert.equal(gen.status, 200);
    const created = await call('POST', '/v1/api-keys', { key: live.liveKey, body: { name: 'poller', scopes: ['events:read'] } });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.deepEqual(created.body.scopes, ['events:read']);
    const before = (await call('GET', '/v1/balance', { key: live.liveKey })).body;

    for (const key of [
      created.body.secret as string,
      await createKeyWithRole(live.id, 'viewer', { scopes: ['events:read'] }),
      await createKeyWithRole(live.id, 'admin', { scopes: ['webhooks:manage'] }),
    ]) {
      const res = await call('GET', '/v1/events', { key });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(
        res.body.data.map((e: Envelope) => e.data.generation_id),
        [gen.body.id],
      );
    }
    const narrow = await createKeyWithRole(live.id, 'admin', { scopes: ['generations:read', 'usage:read'] });
    for (const path of ['/v1/events', `/v1/events/${(await walkForward(live.liveKey))[0]!.id}`]) {
      const res = await call('GET', path, { key: narrow });
      assert.equal(res.status, 403);
      assert.equal(res.body.error.code, 'insufficient_role');
      assert.match(res.body.error.message, /events:read or webhooks:manage/);
    }
    assert.deepEqual((await call('GET', '/v1/balance', { key: live.liveKey })).body, before, 'nothing charged by reading');
    await assertLedgerBalanced(live.id);
  });

  it('shows no event older than EVENT_RETENTION_DAYS (default 30), in the list or by id', async () => {
    assert.equal(stack().apiDeps.eventRetentionDays, 30);
    const day = 86_400_000;
    const newest = forward[0]!;
    const expired = await startExtraApi({ clock: () => new Date(Date.now() + 30 * day + 60_000) });
    assert.deepEqual((await call('GET', '/v1/events', { key: org.testKey, baseUrl: expired.url })).body.data, []);
    assert.equal((await call('GET', `/v1/events/${newest.id}`, { key: org.testKey, baseUrl: expired.url })).status, 404);
    const kept = await startExtraApi({ clock: () => new Date(Date.now() + 30 * day + 60_000), eventRetentionDays: 31 });
    assert.deepEqual((await call('GET', `/v1/events/${newest.id}`, { key: org.testKey, baseUrl: kept.url })).body, newest);
    assert.equal((await call('GET', '/v1/events?limit=100', { key: org.testKey, baseUrl: kept.url })).body.data.length, 100);
  });

  it('returns the very envelope the webhook delivered', async () => {
    const live = await createOrganization();
    const received: string[] = [];
    const server = await startHttpsServer(stack().receiverCertificate, (req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        received.push(body);
        res.writeHead(200).end('ok');
      });
    });
    try {
      const hook = await call('POST', '/v1/webhooks', { key: live.liveKey, body: { url: `https://127.0.0.1:${server.port}/hook`, events: '*' } });
      assert.equal(hook.status, 201, JSON.stringify(hook.body));
      const gen = await call('POST', '/v1/images', { key: live.liveKey, body: { model: 'flux-schnell', prompt: 'delivered and polled' } });
      assert.equal(gen.status, 200);
      await waitFor(async () => received.length >= 1, 20_000, 'the delivery');
      const delivered = JSON.parse(received[0]!) as Envelope;
      assert.deepEqual((await call('GET', `/v1/events/${delivered.id}`, { key: live.liveKey })).body, delivered);
      assert.deepEqual((await call('GET', '/v1/events', { key: live.liveKey })).body.data, [delivered]);
    } finally {
      await server.close();
    }
  });
});
