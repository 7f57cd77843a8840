import assert from 'node:assert/strict';
import type { WebhookDeps } from '../../config/webhook-settings';
import { call, createOrganization, waitFor } from '../helpers/http';
import { startExtraApi, stack } from '../helpers/stack';
import { startTestWorker } from '../helpers/test-worker';
import { startHttpsServer } from '../helpers/tls';

// Endpoint health and the operational events (issue 41, items 1 and 2): a webhook whose every
// delivery failed for WEBHOOK_DISABLE_AFTER, or whose receiver answered 410 Gone, is disabled, its
// open deliveries end `exhausted`, and the organization's other webhooks hear of it
// (`webhook.endpoint_disabled`); every exhausted delivery is announced (`webhook.delivery_exhausted`)
// to the others, never to the webhook it is about. PATCH {"status": "enabled"} resumes deliveries.

interface Envelope {
  id: string;
  type: string;
  data: Record<string, unknown>;
}

/** An https receiver answering `status` (which the test may change); `received` holds each envelope. */
async function startReceiver(status: number) {
  const state = { status, received: [] as Envelope[] };
  const server = await startHttpsServer(stack().receiverCertificate, (req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      state.received.push(JSON.parse(body) as Envelope);
      res.writeHead(state.status).end('answer');
    });
  });
  return Object.assign(state, { url: `https://127.0.0.1:${server.port}/hook`, close: server.close });
}

async function subscribe(key: string, url: string, events: string[] | '*'): Promise<string> {
  const res = await call('POST', '/v1/webhooks', { key, body: { url, events } });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.id as string;
}

async function deliveriesOf(key: string, hookId: string) {
  const res = await call('GET', `/v1/webhooks/${hookId}/deliveries?limit=100`, { key });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.data as { id: string; event_id: string; event_type: string; status: string; attempt_count: number; attempts: unknown[] }[];
}

async function image(key: string, prompt: string): Promise<string> {
  const res = await call('POST', '/v1/images', { key, body: { model: 'flux-schnell', prompt } });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.id as string;
}

const receivedOf = (receiver: { received: Envelope[] }, type: string, subscriptionId: string) =>
  receiver.received.filter((e) => e.type === type && e.data.subscription_id === subscriptionId);

/**
 * An API whose deliveries (replays) go to a queue of the test's own, served by a worker that disables
 * a webhook after `disableAfterMs` of failures: the stack's own worker keeps the 5-day default.
 */
async function withShortDisableWindow<T>(disableAfterMs: number, fn: (apiUrl: string) => Promise<T>): Promise<T> {
  const queue = `webhook-health-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
  const base = stack().apiDeps.webhooks!;
  // A second attempt a minute later: only the disabling can end the delivery within the test.
  const webhooks: WebhookDeps = { ...base, relay: { ...base.relay, taskQueue: queue, scheduleMs: [0, 60_000] } };
  const api = await startExtraApi({ webhooks });
  const worker = await startTestWorker(queue, { webhooks: { ...webhooks, disableAfterMs } });
  try {
    return await fn(api.url);
  } finally {
    await worker.stop();
    await api.close();
  }
}

describe('webhook endpoint health', function () {
  this.timeout(120_000);

  it('disables a webhook whose every delivery failed for WEBHOOK_DISABLE_AFTER, tells the others, records what it misses, and delivers again once enabled', async () => {
    const org = await createOrganization();
    const failing = await startReceiver(500);
    const watcher = await startReceiver(200);
    try {
      // `*`: the failing webhook would receive its own operational events if the fan-out sent them.
      const hook = await subscribe(org.liveKey, failing.url, '*');
      const watch = await subscribe(org.liveKey, watcher.url, ['webhook.endpoint_disabled', 'webhook.delivery_exhausted']);
      await image(org.liveKey, 'the first');

      // Six failed attempts (the stack's schedule): exhausted, announced to the watcher only.
      const exhausted = await waitFor(async () => (await deliveriesOf(org.liveKey, hook)).find((d) => d.status === 'exhausted'), 30_000, 'the delivery to be exhausted');
      assert.equal(exhausted.attempt_count, 6);
      const announced = await waitFor(async () => receivedOf(watcher, 'webhook.delivery_exhausted', hook)[0], 20_000, 'webhook.delivery_exhausted at the watcher');
      assert.deepEqual(announced.data, { subscription_id: hook, delivery_id: exhausted.id, event_id: exhausted.event_id, event_type: 'generation.completed', attempt_count: 6 });
      let shown = (await call('GET', `/v1/webhooks/${hook}`, { key: org.liveKey })).body;
      assert.equal(shown.status, 'enabled', 'five seconds of failures are far from the stack’s five days');
      assert.ok(shown.failing_since, 'failing since its first failed attempt');
      assert.equal(shown.last_success_at, null);

      // The next failed attempt, judged by a worker whose WEBHOOK_DISABLE_AFTER has passed, disables it.
      const replayId = await withShortDisableWindow(1_000, async (apiUrl) => {
        const replay = await call('POST', `/v1/webhook-deliveries/${exhausted.id}/replay`, { key: org.liveKey, baseUrl: apiUrl });
        assert.equal(replay.status, 202, JSON.stringify(replay.body));
        await waitFor(async () => (await call('GET', `/v1/webhooks/${hook}`, { key: org.liveKey })).body.status === 'disabled', 30_000, 'the webhook to be disabled');
        return replay.body.id as string;
      });
      shown = (await call('GET', `/v1/webhooks/${hook}`, { key: org.liveKey })).body;
      assert.match(shown.disabled_reason, /WEBHOOK_DISABLE_AFTER/);
      // Its open delivery (the replay, a minute from its second attempt) ended with the disabling.
      const replay = (await call('GET', `/v1/webhook-deliveries/${replayId}`, { key: org.liveKey })).body;
      assert.deepEqual([replay.status, replay.attempt_count], ['exhausted', 1]);
      const disabled = await waitFor(async () => receivedOf(watcher, 'webhook.endpoint_disabled', hook)[0], 20_000, 'webhook.endpoint_disabled at the watcher');
      assert.equal(disabled.data.url, failing.url);
      assert.equal(disabled.data.reason, shown.disabled_reason);
      assert.equal(disabled.data.failing_since, shown.failing_since);

      // Disabled: an event meanwhile is recorded for it as `exhausted`, with no attempt, and not sent.
      const sentBefore = failing.received.length;
      await image(org.liveKey, 'while disabled');
      const skipped = await waitFor(
        async () => (await deliveriesOf(org.liveKey, hook)).find((d) => d.event_type === 'generation.completed' && d.attempt_count === 0),
        20_000,
        'the delivery recorded while disabled',
      );
      assert.equal(skipped.status, 'exhausted');
      const again = await call('POST', `/v1/webhook-deliveries/${skipped.id}/replay`, { key: org.liveKey });
      assert.deepEqual([again.status, again.body.error?.code], [409, 'delivery_not_replayable']);
      assert.match(again.body.error.message, /enable it first/);
      assert.equal(failing.received.length, sentBefore);

      // Enabled again: failures count from scratch, and deliveries flow.
      failing.status = 200;
      const enabled = await call('PATCH', `/v1/webhooks/${hook}`, { key: org.liveKey, body: { status: 'enabled' } });
      assert.equal(enabled.status, 200, JSON.stringify(enabled.body));
      assert.deepEqual([enabled.body.status, enabled.body.disabled_reason, enabled.body.failing_since], ['enabled', null, null]);
      const after = await image(org.liveKey, 'after enabling');
      await waitFor(async () => failing.received.find((e) => e.data.generation_id === after), 20_000, 'the delivery after enabling');
      shown = await waitFor(
        async () => {
          const body = (await call('GET', `/v1/webhooks/${hook}`, { key: org.liveKey })).body;
          return body.last_success_at ? body : undefined;
        },
        10_000,
        'last_success_at',
      );
      assert.equal(shown.failing_since, null);

      // Never its own operational events, though it listens to `*`; the watcher got each once.
      assert.deepEqual(
        failing.received.filter((e) => e.type.startsWith('webhook.')),
        [],
      );
      assert.ok((await deliveriesOf(org.liveKey, hook)).every((d) => !d.event_type.startsWith('webhook.')));
      assert.equal(receivedOf(watcher, 'webhook.endpoint_disabled', hook).length, 1);
      assert.deepEqual(
        (await deliveriesOf(org.liveKey, watch)).filter((d) => d.status === 'failed' || d.status === 'exhausted'),
        [],
      );
    } finally {
      await failing.close();
      await watcher.close();
    }
  });

  it('disables a webhook at once when its receiver answers 410 Gone, after a single attempt', async () => {
    const org = await createOrganization();
    const gone = await startReceiver(410);
    const watcher = await startReceiver(200);
    try {
      const hook = await subscribe(org.liveKey, gone.url, ['generation.completed']);
      await subscribe(org.liveKey, watcher.url, ['webhook.endpoint_disabled']);
      await image(org.liveKey, 'to a gone endpoint');
      const disabled = await waitFor(async () => receivedOf(watcher, 'webhook.endpoint_disabled', hook)[0], 20_000, 'webhook.endpoint_disabled at the watcher');
      assert.match(String(disabled.data.reason), /410 Gone/);
      const shown = (await call('GET', `/v1/webhooks/${hook}`, { key: org.liveKey })).body;
      assert.deepEqual([shown.status, shown.disabled_reason], ['disabled', disabled.data.reason]);
      const [delivery] = await deliveriesOf(org.liveKey, hook);
      assert.deepEqual([delivery!.status, delivery!.attempt_count], ['exhausted', 1]);
      assert.equal(gone.received.length, 1, 'no retry after a 410');
    } finally {
      await gone.close();
      await watcher.close();
    }
  });

  it('records failed attempts while the webhook row is locked, so a burst of failures of one endpoint never holds the pool and delays another endpoint', async () => {
    const org = await createOrganization();
    const other = await createOrganization();
    const failing = await startReceiver(500);
    const healthy = await startReceiver(200);
    const { knex } = stack();
    let release: (() => void) | undefined;
    let holding: Promise<void> | undefined;
    try {
      const hook = await subscribe(org.liveKey, failing.url, ['generation.completed']);
      const otherHook = await subscribe(other.liveKey, healthy.url, ['generation.completed']);
      // Another transaction holds the webhook's row (as a disabling, a deletion or another failure's
      // judgment would), for as long as the test needs.
      const locked = new Promise<void>((resolve) => {
        holding = knex.transaction(async (trx) => {
          await trx('webhook_subscriptions').where({ id: hook }).forNoKeyUpdate().first('id');
          resolve();
          await new Promise<void>((done) => (release = done));
        });
      });
      await locked;
      // More failing deliveries at once than the stack's pool has connections (10).
      const burst = 12;
      await Promise.all(Array.from({ length: burst }, (_, i) => image(org.liveKey, `failing ${i}`)));
      await waitFor(
        async () => {
          const data = await deliveriesOf(org.liveKey, hook);
          return data.length === burst && data.every((d) => d.attempt_count >= 1);
        },
        20_000,
        'each failing delivery to record its first attempt while the webhook row is locked',
      );
      // Meanwhile another organization's delivery goes through at once.
      const generationId = await image(other.liveKey, 'not held up');
      await waitFor(async () => healthy.received.find((e) => e.data.generation_id === generationId), 10_000, 'the other endpoint’s delivery while the row is locked');
      assert.equal((await deliveriesOf(other.liveKey, otherHook))[0]!.status, 'succeeded');
    } finally {
      release?.();
      await holding;
      await failing.close();
      await healthy.close();
    }
  });

  it('refuses a bad PATCH body with 400 validation_failed, and an unknown webhook with 404', async () => {
    const org = await createOrganization();
    const hook = await subscribe(org.liveKey, 'https://127.0.0.1:9/hook', ['generation.completed']);
    for (const body of [{}, { status: 'disabled' }, { status: 'enabled', url: 'https://example.com/' }, { status: true }, 'enabled']) {
      const res = await call('PATCH', `/v1/webhooks/${hook}`, { key: org.liveKey, body });
      assert.deepEqual([res.status, res.body.error?.code], [400, 'validation_failed'], JSON.stringify(body));
    }
    const unknown = await call('PATCH', '/v1/webhooks/whk_unknown', { key: org.liveKey, body: { status: 'enabled' } });
    assert.deepEqual([unknown.status, unknown.body.error?.code], [404, 'resource_not_found']);
    // Enabling an enabled webhook changes nothing.
    const same = await call('PATCH', `/v1/webhooks/${hook}`, { key: org.liveKey, body: { status: 'enabled' } });
    assert.deepEqual([same.status, same.body.status, same.body.failing_since], [200, 'enabled', null]);
  });
});
