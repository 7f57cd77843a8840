import assert from 'node:assert/strict';
import { call, createOrganization, waitFor } from '../helpers/http';
import { stack } from '../helpers/stack';
import { startHttpsServer } from '../helpers/tls';

// Per-endpoint throttling (issue 41, item 3): a webhook's `max_deliveries_per_second` spaces its
// deliveries at that rate; those above it wait (a durable timer) instead of failing, and each
// attempt's `throttled_ms` says how long it waited. Measured at the receiver, from receipt times.

interface Receipt {
  at: number;
  eventId: string;
}

/** An https receiver accepting everything (or refusing each delivery's first request), noting when each request arrived. */
async function startReceiver(opts: { refuseFirst?: boolean } = {}) {
  const received: Receipt[] = [];
  const server = await startHttpsServer(stack().receiverCertificate, (req, res) => {
    const at = Date.now();
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const eventId = (JSON.parse(body) as { id: string }).id;
      const first = !received.some((r) => r.eventId === eventId);
      received.push({ at, eventId });
      res.writeHead(opts.refuseFirst && first ? 500 : 200).end('ok');
    });
  });
  return { url: `https://127.0.0.1:${server.port}/hook`, received, close: server.close };
}

async function subscribe(key: string, body: Record<string, unknown>) {
  const res = await call('POST', '/v1/webhooks', { key, body: { events: ['generation.completed'], ...body } });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body as { id: string; max_deliveries_per_second: number | null };
}

interface Delivery {
  id: string;
  status: string;
  attempt_count: number;
  attempts: { number: number; throttled_ms: number }[];
}

async function deliveriesOf(key: string, hookId: string): Promise<Delivery[]> {
  const all: Delivery[] = [];
  for (let after: string | undefined; ;) {
    const res = await call('GET', `/v1/webhooks/${hookId}/deliveries?limit=100${after ? `&starting_after=${after}` : ''}`, { key });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    all.push(...(res.body.data as Delivery[]));
    if (!res.body.has_more) return all;
    after = all[all.length - 1]!.id;
  }
}

/** `n` sync images, `parallel` at a time: each one event `generation.completed`. */
async function images(key: string, n: number, parallel = 10): Promise<void> {
  for (let i = 0; i < n; i += parallel) {
    await Promise.all(
      Array.from({ length: Math.min(parallel, n - i) }, async (_, k) => {
        const res = await call('POST', '/v1/images', { key, body: { model: 'flux-schnell', prompt: `burst ${i + k}` } });
        assert.equal(res.status, 200, JSON.stringify(res.body));
      }),
    );
  }
}

/** The most receipts in any window of `windowMs` (each window starting at a receipt). */
function mostInWindow(times: number[], windowMs: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let most = 0;
  for (let i = 0, j = 0; i < sorted.length; i += 1) {
    while (sorted[j]! < sorted[i]! - windowMs + 1) j += 1;
    most = Math.max(most, i - j + 1);
  }
  return most;
}

async function allSucceeded(key: string, hookId: string, n: number, timeoutMs: number): Promise<Delivery[]> {
  return waitFor(
    async () => {
      const deliveries = await deliveriesOf(key, hookId);
      return deliveries.length === n && deliveries.every((d) => d.status === 'succeeded') && deliveries;
    },
    timeoutMs,
    `${n} deliveries of ${hookId} to succeed`,
  );
}

describe('webhook throttling', function () {
  this.timeout(180_000);

  it('holds a burst of 50 to 5 a second, none failed, the waits in the delivery log; an unthrottled webhook of the same events is unaffected', async () => {
    const org = await createOrganization({ plan: 'pro' });
    const throttled = await startReceiver();
    const free = await startReceiver();
    const rate = 5;
    const n = 50;
    try {
      const slow = await subscribe(org.liveKey, { url: throttled.url, max_deliveries_per_second: rate });
      assert.equal(slow.max_deliveries_per_second, rate);
      const fast = await subscribe(org.liveKey, { url: free.url });
      assert.equal(fast.max_deliveries_per_second, null);
      await images(org.liveKey, n);

      const slowDeliveries = await allSucceeded(org.liveKey, slow.id, n, 90_000);
      const fastDeliveries = await allSucceeded(org.liveKey, fast.id, n, 30_000);

      // Every event arrived once, at the first attempt: a wait is neither a failure nor an attempt.
      assert.equal(new Set(throttled.received.map((r) => r.eventId)).size, n);
      assert.equal(throttled.received.length, n);
      assert.ok(slowDeliveries.every((d) => d.attempt_count === 1 && d.attempts.length === 1));
      const times = throttled.received.map((r) => r.at).sort((x, y) => x - y);
      const spanMs = times[times.length - 1]! - times[0]!;
      const gaps = times.slice(1).map((t, i) => t - times[i]!);
      const medianGapMs = [...gaps].sort((x, y) => x - y)[Math.floor(gaps.length / 2)]!;
      const mostInOne = mostInWindow(times, 1000);
      const mostInTwo = mostInWindow(times, 2000);
      const waited = slowDeliveries.filter((d) => d.attempts[0]!.throttled_ms > 0);
      process.stderr.write(`      throttled: span ${spanMs} ms, median gap ${medianGapMs} ms, at most ${mostInOne} in 1 s and ${mostInTwo} in 2 s, ${waited.length}/${n} waited\n`);
      // Sends pass a gate letting at most rate+1 through in any second (db/repos/webhook-throttle.ts),
      // so the burst lasts at least (n-1)/rate less the gate's tolerance of half an interval (and a
      // little for the clocks' reading). The receiver reads its clock after the network and a
      // loaded machine's scheduling: one more in a second is slack for that, not for the gate.
      // Unthrottled, these 50 arrive within about 3 s.
      assert.ok(spanMs >= ((n - 1) / rate - 0.5 / rate) * 1000 - 100, `the burst took ${spanMs} ms`);
      assert.ok(mostInOne <= rate + 2, `${mostInOne} deliveries arrived within one second`);
      assert.ok(mostInTwo <= 2 * rate + 2, `${mostInTwo} deliveries arrived within two seconds`);
      // The first few events may find free slots; the rest of the burst waited, and says so.
      assert.ok(waited.length >= n - 10, `${waited.length} of ${n} deliveries show a wait`);
      const longest = Math.max(...slowDeliveries.map((d) => d.attempts[0]!.throttled_ms));
      assert.ok(longest >= 2000, `the longest wait was ${longest} ms`);

      // The waits were no failures: the endpoint's health saw only successes.
      const shown = (await call('GET', `/v1/webhooks/${slow.id}`, { key: org.liveKey })).body;
      assert.deepEqual([shown.status, shown.failing_since, typeof shown.last_success_at], ['enabled', null, 'string']);

      // The unthrottled webhook of the same events: nothing waited.
      assert.equal(free.received.length, n);
      assert.ok(fastDeliveries.every((d) => d.attempt_count === 1 && d.attempts[0]!.throttled_ms === 0));
    } finally {
      await throttled.close();
      await free.close();
    }
  });

  it('spaces retries too: each attempt after a failure takes its own slot', async () => {
    const org = await createOrganization({ plan: 'pro' });
    const receiver = await startReceiver({ refuseFirst: true });
    const rate = 2;
    try {
      const hook = await subscribe(org.liveKey, { url: receiver.url, max_deliveries_per_second: rate });
      await images(org.liveKey, 4);
      const deliveries = await allSucceeded(org.liveKey, hook.id, 4, 30_000);
      assert.ok(deliveries.every((d) => d.attempt_count === 2 && d.attempts.length === 2));
      // 8 requests at 2/s; unthrottled, the 4 retries would follow their failures by the test
      // schedule's 1 s, all within about 1.5 s of the first request.
      const times = receiver.received.map((r) => r.at).sort((x, y) => x - y);
      assert.equal(times.length, 8);
      const spanMs = times[7]! - times[0]!;
      assert.ok(spanMs >= ((8 - 1) / rate - 0.5 / rate) * 1000 - 100, `8 requests at 2/s took ${spanMs} ms`);
      assert.ok(
        deliveries.some((d) => d.attempts[1]!.number === 2 && d.attempts[1]!.throttled_ms > 0),
        'a retry waited for its slot',
      );
    } finally {
      await receiver.close();
    }
  });

  it('PATCH changes the rate: null sends at once, a lower rate spaces the next deliveries', async () => {
    const org = await createOrganization({ plan: 'pro' });
    const receiver = await startReceiver();
    try {
      const hook = await subscribe(org.liveKey, { url: receiver.url, max_deliveries_per_second: 0.01 });
      const unlimited = await call('PATCH', `/v1/webhooks/${hook.id}`, { key: org.liveKey, body: { max_deliveries_per_second: null } });
      assert.equal(unlimited.status, 200, JSON.stringify(unlimited.body));
      assert.equal(unlimited.body.max_deliveries_per_second, null);
      assert.equal(unlimited.body.status, 'enabled');
      // At 0.01/s the second of these would wait 100 s: unlimited, all arrive at once.
      await images(org.liveKey, 5);
      let deliveries = await allSucceeded(org.liveKey, hook.id, 5, 30_000);
      assert.ok(deliveries.every((d) => d.attempts[0]!.throttled_ms === 0));

      const one = await call('PATCH', `/v1/webhooks/${hook.id}`, { key: org.liveKey, body: { max_deliveries_per_second: 2 } });
      assert.equal(one.status, 200, JSON.stringify(one.body));
      assert.equal(one.body.max_deliveries_per_second, 2);
      assert.equal((await call('GET', `/v1/webhooks/${hook.id}`, { key: org.liveKey })).body.max_deliveries_per_second, 2);
      const before = receiver.received.length;
      await images(org.liveKey, 5);
      deliveries = await allSucceeded(org.liveKey, hook.id, 10, 30_000);
      const times = receiver.received.slice(before).map((r) => r.at);
      assert.equal(times.length, 5);
      const spanMs = Math.max(...times) - Math.min(...times);
      assert.ok(spanMs >= 2000 - 100, `5 deliveries at 2/s took ${spanMs} ms`);
      assert.ok(deliveries.filter((d) => d.attempts[0]!.throttled_ms > 0).length >= 3);
    } finally {
      await receiver.close();
    }
  });

  it('refuses a rate out of 0.01..1000 with 400 validation_failed, on create and on PATCH', async () => {
    const org = await createOrganization();
    const url = 'https://127.0.0.1:9/hook';
    for (const bad of [0, -1, 0.001, 1001, '5', true, {}]) {
      const created = await call('POST', '/v1/webhooks', { key: org.liveKey, body: { url, events: ['*'], max_deliveries_per_second: bad } });
      assert.equal(created.status, 400, `${JSON.stringify(bad)}: ${JSON.stringify(created.body)}`);
      assert.equal(created.body.error.code, 'validation_failed');
      assert.equal(created.body.error.param, 'max_deliveries_per_second');
    }
    const hook = await subscribe(org.liveKey, { url, max_deliveries_per_second: 1000 });
    assert.equal(hook.max_deliveries_per_second, 1000);
    for (const bad of [0, 1001, 'fast']) {
      const patched = await call('PATCH', `/v1/webhooks/${hook.id}`, { key: org.liveKey, body: { max_deliveries_per_second: bad } });
      assert.equal(patched.status, 400, JSON.stringify(patched.body));
      assert.equal(patched.body.error.code, 'validation_failed');
    }
    const empty = await call('PATCH', `/v1/webhooks/${hook.id}`, { key: org.liveKey, body: {} });
    assert.equal(empty.status, 400, JSON.stringify(empty.body));
    const slowest = await call('PATCH', `/v1/webhooks/${hook.id}`, { key: org.liveKey, body: { max_deliveries_per_second: 0.01 } });
    assert.equal(slowest.body.max_deliveries_per_second, 0.01);
  });
});
