import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { runSoak, seededRandom } from '../../bench/chaos/soak';

// The soak's own mechanics, against a local HTTP server that speaks the API's idempotency rules
// (decisions §9) instead of the whole stack (a chaos run takes minutes and loads the machine): a
// creation answered 503 is sent again with the same Idempotency-Key until it is accepted, a replay
// with the key must name the same resource, and every answer is kept for the 503-window check.

interface FakeApi {
  url: string;
  /** Ids created, per Idempotency-Key. */
  created: Map<string, string>;
  cancelled: string[];
  close(): Promise<void>;
}

/** Answers each key's first creation 503, then creates (or replays) its resource; `lying` replays a new id instead. */
async function fakeApi(opts: { lying?: boolean } = {}): Promise<FakeApi> {
  const created = new Map<string, string>();
  const refusedOnce = new Set<string>();
  const cancelled: string[] = [];
  let next = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const answer = (status: number, body: unknown) => res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
      const cancel = /^\/v1\/(generations|comparisons)\/([^/]+)\/cancel$/.exec(req.url ?? '');
      if (cancel) {
        cancelled.push(cancel[2]!);
        return answer(200, { id: cancel[2], status: 'canceled' });
      }
      const key = String(req.headers['idempotency-key'] ?? '');
      if (!key) return answer(400, { error: { code: 'invalid_request' } });
      if (!refusedOnce.has(key)) {
        refusedOnce.add(key);
        return answer(503, { error: { code: 'service_unavailable' } });
      }
      const prefix = req.url === '/v1/comparisons' ? 'cmp' : 'gen';
      const known = created.get(key);
      const id = known && !opts.lying ? known : `${prefix}_${++next}`;
      created.set(key, known ?? id);
      return answer(202, { id, status: 'queued' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, created, cancelled, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe('the chaos soak', function () {
  // Each 503 costs the soak a 1 s pause before it sends the request again.
  this.timeout(60_000);

  it('retries each creation with its Idempotency-Key, replays some, cancels some, and keeps every answer', async () => {
    const api = await fakeApi();
    try {
      const soak = await runSoak({ apiUrl: api.url, key: 'sk_test', imageUrl: 'https://example.test/in.png', operations: 40, concurrency: 6, random: seededRandom(7) });
      assert.deepEqual(soak.violations, []);
      const ops = soak.operations;
      assert.equal(ops.generation + ops.comparison + ops.cancel + ops.replay, 40);
      assert.ok(ops.generation > 0 && ops.replay > 0 && ops.cancel > 0, JSON.stringify(ops));
      // One resource per key, each created once though every key was refused first.
      assert.equal(soak.generations.length + soak.comparisons.length, api.created.size);
      assert.equal(soak.creations.filter((a) => a.status === 503).length, ops.generation + ops.comparison);
      assert.deepEqual(soak.cancels.map((c) => c.id).sort(), api.cancelled.filter((id) => id.startsWith('gen_')).sort());
    } finally {
      await api.close();
    }
  });

  it('names a replay that answers another id than the first creation', async () => {
    const api = await fakeApi({ lying: true });
    try {
      const soak = await runSoak({ apiUrl: api.url, key: 'sk_test', imageUrl: 'https://example.test/in.png', operations: 40, concurrency: 6, random: seededRandom(7) });
      assert.ok(soak.operations.replay > 0);
      assert.equal(soak.violations.length, soak.operations.replay, soak.violations.join('\n'));
      assert.match(soak.violations[0]!, /^soak: replaying (gen|cmp)_\d+ with its Idempotency-Key created (gen|cmp)_\d+$/);
    } finally {
      await api.close();
    }
  });
});
