import assert from 'node:assert/strict';
import { call, createOrganization, waitFor } from '../helpers/http';
import { createKeyWithRole } from '../helpers/keys';
import { assertLedgerBalanced } from '../helpers/ledger';
import { startExtraApi, stack } from '../helpers/stack';
import { startHttpsServer } from '../helpers/tls';

// Bulk recovery (issue 41, item 4): POST /v1/webhooks/{id}/recover replays every exhausted delivery
// of a webhook created in a window, in the background, one recovery per window; GET
// /v1/webhook-recoveries/{id} shows its progress. Every delivery here is made through the
// production path (generations by HTTP, the stack's relay and retry schedule of 6 quick attempts).

interface Received {
  id: string;
  webhookId: string | undefined;
}

/** An https receiver answering `status` (which the test may change); `received` holds each envelope id and its webhook-id header. */
async function startReceiver(status: number) {
  const state = { status, received: [] as Received[] };
  const server = await startHttpsServer(stack().receiverCertificate, (req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      state.received.push({ id: (JSON.parse(body) as { id: string }).id, webhookId: req.headers['webhook-id'] as string | undefined });
      res.writeHead(state.status).end('answer');
    });
  });
  return Object.assign(state, { url: `https://127.0.0.1:${server.port}/hook`, close: server.close });
}

async function subscribe(key: string, url: string): Promise<string> {
  const res = await call('POST', '/v1/webhooks', { key, body: { url, events: ['generation.completed'] } });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.id as string;
}

interface Delivery {
  id: string;
  event_id: string;
  status: string;
  created_at: string;
  replay_of: string | null;
}

async function deliveriesOf(key: string, hookId: string): Promise<Delivery[]> {
  const res = await call('GET', `/v1/webhooks/${hookId}/deliveries?limit=100`, { key });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.data as Delivery[];
}

/** `count` sandbox images, one after another (each a generation.completed event). */
async function images(key: string, count: number): Promise<void> {
  for (let i = 0; i < count; i += 1) {
    const res = await call('POST', '/v1/images', { key, body: { model: 'flux-schnell', prompt: `recover me ${i}` } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
  }
}

/** Waits until the webhook has `count` deliveries of `status` (originals only), and returns them oldest first. */
async function waitForOriginals(key: string, hookId: string, status: string, count: number): Promise<Delivery[]> {
  return waitFor(
    async () => {
      const found = (await deliveriesOf(key, hookId)).filter((d) => d.replay_of === null && d.status === status);
      return found.length === count && found.sort((a, b) => a.created_at.localeCompare(b.created_at));
    },
    60_000,
    `${count} ${status} deliveries`,
  );
}

async function waitForCompleted(key: string, recoveryId: string) {
  return waitFor(
    async () => {
      const res = await call('GET', `/v1/webhook-recoveries/${recoveryId}`, { key });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.body.status === 'completed' && res.body.succeeded === res.body.replayed && res.body;
    },
    60_000,
    `recovery ${recoveryId} completed with every replay succeeded`,
  );
}

describe('webhook bulk recovery', function () {
  this.timeout(180_000);

  it('replays 20 exhausted deliveries once the receiver is healed (20/20, same event ids), and the same window answers the same recovery', async () => {
    const org = await createOrganization();
    const receiver = await startReceiver(500);
    try {
      const since = new Date(Date.now() - 1_000).toISOString();
      const hookId = await subscribe(org.liveKey, receiver.url);
      await images(org.liveKey, 20);
      const exhausted = await waitForOriginals(org.liveKey, hookId, 'exhausted', 20);
      const eventIds = exhausted.map((d) => d.event_id).sort();
      receiver.status = 200;
      const sentBefore = receiver.received.length;

      const started = await call('POST', `/v1/webhooks/${hookId}/recover`, { key: org.liveKey, body: { since } });
      assert.equal(started.status, 202, JSON.stringify(started.body));
      assert.equal(started.body.object, 'webhook_recovery');
      assert.match(started.body.id, /^whr_/);
      assert.equal(started.body.webhook_id, hookId);
      assert.equal(started.body.since, since);
      assert.ok(['queued', 'running', 'completed'].includes(started.body.status));
      assert.equal(started.body.completed_at === null, started.body.status !== 'completed');

      const done = await waitForCompleted(org.liveKey, started.body.id);
      assert.equal(done.total, 20);
      assert.equal(done.replayed, 20);
      assert.equal(done.succeeded, 20);
      assert.ok(done.completed_at);
      const resent = receiver.received.slice(sentBefore);
      assert.deepEqual(resent.map((r) => r.id).sort(), eventIds, 'each of the 20 events again, once');
      assert.ok(
        resent.every((r) => r.webhookId === r.id),
        'webhook-id is the event id',
      );

      // The same window, given explicitly or again without until: the same recovery, nothing replayed again.
      const again = await call('POST', `/v1/webhooks/${hookId}/recover`, { key: org.liveKey, body: { since, until: started.body.until } });
      assert.equal(again.status, 200, JSON.stringify(again.body));
      assert.equal(again.body.id, started.body.id);
      const retried = await call('POST', `/v1/webhooks/${hookId}/recover`, { key: org.liveKey, body: { since } });
      assert.equal(retried.status, 200, JSON.stringify(retried.body));
      assert.equal(retried.body.id, started.body.id);
      assert.deepEqual(retried.body, { ...done, status: 'completed' });
      assert.equal((await deliveriesOf(org.liveKey, hookId)).length, 40, '20 originals and 20 replays, no more');
      assert.equal(receiver.received.length, sentBefore + 20);
      await assertLedgerBalanced(org.id);
    } finally {
      await receiver.close();
    }
  });

  it("replays only the window, and never an event the webhook has received (a delivery that succeeded, or an earlier recovery's replay)", async () => {
    const org = await createOrganization();
    const receiver = await startReceiver(500);
    try {
      const since = new Date(Date.now() - 1_000).toISOString();
      const hookId = await subscribe(org.liveKey, receiver.url);
      await images(org.liveKey, 3);
      const exhausted = await waitForOriginals(org.liveKey, hookId, 'exhausted', 3);
      receiver.status = 200;
      await images(org.liveKey, 2);
      const succeeded = await waitForOriginals(org.liveKey, hookId, 'succeeded', 2);
      let sentBefore = receiver.received.length;

      // [since, the third exhausted delivery's creation): the first two only.
      const first = await call('POST', `/v1/webhooks/${hookId}/recover`, { key: org.liveKey, body: { since, until: exhausted[2]!.created_at } });
      assert.equal(first.status, 202, JSON.stringify(first.body));
      const firstDone = await waitForCompleted(org.liveKey, first.body.id);
      assert.deepEqual([firstDone.total, firstDone.replayed, firstDone.succeeded], [2, 2, 2]);
      assert.deepEqual(
        receiver.received
          .slice(sentBefore)
          .map((r) => r.id)
          .sort(),
        [exhausted[0]!.event_id, exhausted[1]!.event_id].sort(),
      );

      // Everything since: the third only (the first two were received since, the last two succeeded).
      sentBefore = receiver.received.length;
      const all = await call('POST', `/v1/webhooks/${hookId}/recover`, { key: org.liveKey, body: { since } });
      assert.equal(all.status, 202, JSON.stringify(all.body));
      assert.notEqual(all.body.id, first.body.id);
      const allDone = await waitForCompleted(org.liveKey, all.body.id);
      assert.deepEqual([allDone.total, allDone.replayed, allDone.succeeded], [1, 1, 1]);
      assert.deepEqual(
        receiver.received.slice(sentBefore).map((r) => r.id),
        [exhausted[2]!.event_id],
      );
      assert.ok(!receiver.received.slice(sentBefore).some((r) => succeeded.some((d) => d.event_id === r.id)));
    } finally {
      await receiver.close();
    }
  });

  it('pages through a large recovery, continuing as new, without skipping or repeating a delivery', async () => {
    const org = await createOrganization();
    const receiver = await startReceiver(500);
    // Pages of 2, 2 pages a run: 7 deliveries take 4 pages, so the workflow continues as new once.
    const base = stack().apiDeps.webhooks!;
    const api = await startExtraApi({ webhooks: { ...base, recoveryPaging: { pageSize: 2, pagesPerRun: 2 } } });
    try {
      const since = new Date(Date.now() - 1_000).toISOString();
      const hookId = await subscribe(org.liveKey, receiver.url);
      await images(org.liveKey, 7);
      const exhausted = await waitForOriginals(org.liveKey, hookId, 'exhausted', 7);
      receiver.status = 200;
      const sentBefore = receiver.received.length;
      const started = await call('POST', `/v1/webhooks/${hookId}/recover`, { key: org.liveKey, body: { since }, baseUrl: api.url });
      assert.equal(started.status, 202, JSON.stringify(started.body));
      const done = await waitForCompleted(org.liveKey, started.body.id);
      assert.deepEqual([done.total, done.replayed, done.succeeded], [7, 7, 7]);
      assert.deepEqual(
        receiver.received
          .slice(sentBefore)
          .map((r) => r.id)
          .sort(),
        exhausted.map((d) => d.event_id).sort(),
      );
      // The last run was started by its predecessor's continue-as-new.
      const lastRun = await stack().temporal.workflow.getHandle(started.body.id).fetchHistory();
      assert.ok(lastRun.events?.[0]?.workflowExecutionStartedEventAttributes?.continuedExecutionRunId, 'the workflow continued as new');
    } finally {
      await api.close();
      await receiver.close();
    }
  });

  it('refuses bad windows, unknown and foreign webhooks, foreign recoveries, a disabled webhook and other scopes with documented codes', async () => {
    const org = await createOrganization();
    const other = await createOrganization();
    const gone = await startReceiver(410);
    const fine = await startReceiver(200);
    try {
      const hookId = await subscribe(org.liveKey, fine.url);
      const recover = (body: unknown, key = org.liveKey, id = hookId) => call('POST', `/v1/webhooks/${id}/recover`, { key, body });
      const now = Date.now();
      const iso = (ms: number) => new Date(ms).toISOString();
      const retentionMs = stack().apiDeps.eventRetentionDays * 86_400_000;
      for (const [body, param, message] of [
        [{}, undefined, /since/],
        [{ since: 'yesterday' }, undefined, /since/],
        [{ since: '2026-02-30T25:00:00Z' }, undefined, /since/],
        [{ since: iso(now - 60_000), until: iso(now - 120_000) }, 'since', /earlier than until/],
        [{ since: iso(now + 60_000) }, 'since', /earlier than until/],
        [{ since: iso(now - retentionMs - 60_000) }, 'since', /EVENT_RETENTION_DAYS/],
        [{ since: iso(now - 60_000), until: iso(now + 3_600_000) }, 'until', /future/],
        [{ since: iso(now - 60_000), extra: 1 }, undefined, /extra|additional/i],
      ] as const) {
        const res = await recover(body);
        assert.equal(res.status, 400, JSON.stringify([body, res.body]));
        assert.equal(res.body.error.code, 'validation_failed');
        assert.match(res.body.error.message, message);
        if (param) assert.equal(res.body.error.param, param);
      }
      const unknown = await recover({ since: iso(now - 60_000) }, org.liveKey, 'whk_nope');
      assert.equal(unknown.status, 404);
      assert.equal(unknown.body.error.code, 'resource_not_found');
      const foreign = await recover({ since: iso(now - 60_000) }, other.liveKey);
      assert.equal(foreign.status, 404);
      assert.equal(foreign.body.error.code, 'resource_not_found');
      const otherEnvironment = await recover({ since: iso(now - 60_000) }, org.testKey);
      assert.equal(otherEnvironment.status, 404);

      const mine = await recover({ since: iso(now - 60_000) });
      assert.equal(mine.status, 202, JSON.stringify(mine.body));
      for (const key of [other.liveKey, org.testKey]) {
        const peek = await call('GET', `/v1/webhook-recoveries/${mine.body.id}`, { key });
        assert.equal(peek.status, 404);
        assert.equal(peek.body.error.code, 'resource_not_found');
      }
      assert.equal((await waitForCompleted(org.liveKey, mine.body.id)).total, 0);

      const narrow = await createKeyWithRole(org.id, 'admin', { scopes: ['generations:read', 'events:read'] });
      for (const res of [await recover({ since: iso(now - 60_000) }, narrow), await call('GET', `/v1/webhook-recoveries/${mine.body.id}`, { key: narrow })]) {
        assert.equal(res.status, 403);
        assert.equal(res.body.error.code, 'insufficient_role');
      }
      const developer = await createKeyWithRole(org.id, 'developer', { scopes: ['webhooks:manage'] });
      assert.equal((await recover({ since: iso(now - 60_000) }, developer)).status, 403);

      // A webhook disabled by a 410: refused until it is enabled again.
      const goneId = await subscribe(org.liveKey, gone.url);
      await images(org.liveKey, 1);
      await waitFor(async () => (await call('GET', `/v1/webhooks/${goneId}`, { key: org.liveKey })).body.status === 'disabled', 30_000, 'the 410 webhook disabled');
      const refused = await recover({ since: iso(now - 60_000) }, org.liveKey, goneId);
      assert.equal(refused.status, 409);
      assert.equal(refused.body.error.code, 'webhook_disabled');
      assert.match(refused.body.error.message, new RegExp(`PATCH /v1/webhooks/${goneId}`));
      assert.equal((await call('PATCH', `/v1/webhooks/${goneId}`, { key: org.liveKey, body: { status: 'enabled' } })).status, 200);
      assert.equal((await recover({ since: iso(now - 60_000) }, org.liveKey, goneId)).status, 202);
    } finally {
      await gone.close();
      await fine.close();
    }
  });
});
