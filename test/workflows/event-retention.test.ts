import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { createEventRetentionActivities } from '../../activities/event-retention';
import { EVENT_RETENTION_SCHEDULE_ID } from '../../worker/event-retention-schedule';
import type { EventRetentionResult } from '../../workflows/event-retention';
import { call, createOrganization, waitFor, type TestOrganization } from '../helpers/http';
import { assertMoneyInvariants } from '../helpers/money-invariants';
import { stack } from '../helpers/stack';
import { startTestWorker } from '../helpers/test-worker';
import { startHttpsServer } from '../helpers/tls';

// EVENT_RETENTION_DAYS made true in storage (issue 41 item 5): the retention workflow deletes old
// events with their deliveries and attempts, and keeps what a delivery or the budget threshold
// guard still needs. Every row is made through the API and delivered by the stack's own webhook
// worker; the events are aged by the sweep's clock (its activity's `clock` dependency, on a worker
// of this test's own), never by rewriting created_at. That clock moves the whole database's rows
// past the window, so each run here also deletes what earlier test files left behind: the
// assertions look at this test's rows only.

const DAY_MS = 86_400_000;
const QUEUE = 'event-retention-test';

/** The sweep's clock and window, read at each batch. */
let sweepNow = new Date();
let sweepDays = 30;

async function runRetention(): Promise<EventRetentionResult> {
  return stack().temporal.workflow.execute('eventRetentionWorkflow', {
    taskQueue: QUEUE,
    workflowId: `event-retention-test-${Date.now()}-${Math.random().toString(36).slice(2)}`,
    args: [],
  });
}

/** The ids of a generation's events, its deliveries (replays included) and how many attempts they have. */
async function rowsOf(generationId: string): Promise<{ events: string[]; deliveries: string[]; attempts: number }> {
  const { knex } = stack();
  const events: string[] = (await knex('events').where({ subject_id: generationId }).select('id')).map((r: { id: string }) => r.id);
  const deliveries: string[] = events.length ? (await knex('webhook_deliveries').whereIn('event_id', events).select('id')).map((r: { id: string }) => r.id) : [];
  const attempts = deliveries.length ? Number((await knex('webhook_attempts').whereIn('delivery_id', deliveries).count({ n: '*' }))[0]!.n) : 0;
  return { events, deliveries, attempts };
}

async function image(org: TestOrganization, prompt: string): Promise<string> {
  const res = await call('POST', '/v1/images', { key: org.liveKey, body: { model: 'flux-schnell', prompt } });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.id;
}

async function deliveryStatuses(generationId: string): Promise<string[]> {
  const { deliveries } = await rowsOf(generationId);
  if (deliveries.length === 0) return [];
  return (await stack().knex('webhook_deliveries').whereIn('id', deliveries).select('status')).map((r: { status: string }) => r.status);
}

describe('event retention (EVENT_RETENTION_DAYS)', function () {
  this.timeout(180_000);

  let worker: { stop(): Promise<void> };
  const held: ServerResponse[] = [];
  let receiver: Awaited<ReturnType<typeof startHttpsServer>>;

  before(async () => {
    worker = await startTestWorker(QUEUE, {
      // The production activity, with the clock and window this test sets before each run.
      activities: () => ({
        deleteExpiredEventBatch: () => createEventRetentionActivities({ knex: stack().knex, eventRetentionDays: sweepDays, clock: () => sweepNow }).deleteExpiredEventBatch(),
      }),
    });
    // /ok answers 200; /hang never answers, so each attempt times out and its delivery stays open.
    receiver = await startHttpsServer(stack().receiverCertificate, (req, res) => {
      req.resume();
      if (req.url === '/hang') held.push(res);
      else res.writeHead(200).end('ok');
    });
  });

  after(async () => {
    for (const res of held) res.destroy();
    await receiver.close();
    await worker.stop();
  });

  it('is a Schedule the worker created, running the retention workflow every minute', async () => {
    const described = await stack().temporal.schedule.getHandle(EVENT_RETENTION_SCHEDULE_ID).describe();
    assert.equal(described.action.type, 'startWorkflow');
    assert.equal(described.action.workflowType, 'eventRetentionWorkflow');
    assert.deepEqual(
      described.spec.intervals?.map((i) => i.every),
      [60_000],
    );
  });

  it('deletes the events older than the window with their deliveries (replays included) and attempts, keeps newer ones and an old one whose delivery is still open', async () => {
    const delivered = await createOrganization({ credits: 100_000 });
    const hanging = await createOrganization({ credits: 100_000 });
    for (const [org, path] of [
      [delivered, '/ok'],
      [hanging, '/hang'],
    ] as const) {
      const hook = await call('POST', '/v1/webhooks', { key: org.liveKey, body: { url: `https://127.0.0.1:${receiver.port}${path}`, events: '*' } });
      assert.equal(hook.status, 201, JSON.stringify(hook.body));
    }

    const old = [await image(delivered, 'old 1'), await image(delivered, 'old 2 #fail')];
    for (const id of old) await waitFor(async () => (await deliveryStatuses(id)).join() === 'succeeded' || undefined, 20_000, `${id}'s delivery`);
    // A replay is a second delivery of the same event: it goes with it.
    const [firstDelivery] = (await rowsOf(old[0]!)).deliveries;
    assert.equal((await call('POST', `/v1/webhook-deliveries/${firstDelivery}/replay`, { key: delivered.liveKey })).status, 202);
    await waitFor(async () => (await deliveryStatuses(old[0]!)).join() === 'succeeded,succeeded' || undefined, 20_000, 'the replay');
    const open = await image(hanging, 'old, its receiver hangs');
    await waitFor(async () => (await deliveryStatuses(open)).length === 1 || undefined, 20_000, 'the hanging delivery');
    const oldRows = await Promise.all(old.map(rowsOf));
    assert.deepEqual(
      oldRows.map((r) => [r.events.length, r.deliveries.length, r.attempts]),
      [
        [1, 2, 2],
        [1, 1, 1],
      ],
    );
    const oldEvent = oldRows[0]!.events[0]!;
    assert.equal((await call('GET', `/v1/events/${oldEvent}`, { key: delivered.liveKey })).status, 200, 'shown while inside the window');

    // Everything above is older than `cut`; what follows is newer.
    const cut = new Date(Date.now() + 5);
    await waitFor(async () => Date.now() > cut.getTime() + 5 || undefined, 1_000, 'the cut to pass');
    const recent = await image(delivered, 'recent');
    await waitFor(async () => (await deliveryStatuses(recent)).join() === 'succeeded' || undefined, 20_000, "the recent event's delivery");

    sweepNow = new Date(cut.getTime() + 30 * DAY_MS);
    sweepDays = 30;
    assert.deepEqual(await deliveryStatuses(open).then((s) => s.filter((x) => x === 'pending' || x === 'failed').length), 1, 'still open when the sweep runs');
    const result = await runRetention();
    assert.ok(result.events >= 2 && result.deliveries >= 3 && result.attempts >= 3, JSON.stringify(result));

    for (const id of old) assert.deepEqual(await rowsOf(id), { events: [], deliveries: [], attempts: 0 }, `${id}'s rows are gone`);
    const leftDeliveries = await stack()
      .knex('webhook_deliveries')
      .whereIn(
        'id',
        oldRows.flatMap((r) => r.deliveries),
      )
      .count({ n: '*' });
    assert.equal(Number(leftDeliveries[0]!.n), 0);
    const recentRows = await rowsOf(recent);
    assert.deepEqual([recentRows.events.length, recentRows.deliveries.length, recentRows.attempts], [1, 1, 1], 'the newer event is kept with its delivery');
    const openRows = await rowsOf(open);
    assert.deepEqual([openRows.events.length, openRows.deliveries.length], [1, 1], 'the old event whose delivery is open is kept');
    // The API, on its own (real) clock, shows the deleted event no more: it is gone, not hidden.
    assert.equal((await call('GET', `/v1/events/${oldEvent}`, { key: delivered.liveKey })).status, 404);
    assert.deepEqual(
      (await call('GET', '/v1/events', { key: delivered.liveKey })).body.data.map((e: { id: string }) => e.id),
      recentRows.events,
    );

    // A second run at once finds nothing more of these to delete; once the hanging delivery has
    // ended (exhausted), its event goes too, with the delivery and every attempt.
    await runRetention();
    assert.equal((await rowsOf(recent)).events.length, 1);
    await waitFor(async () => (await deliveryStatuses(open)).join() === 'exhausted' || undefined, 60_000, 'the hanging delivery to be exhausted');
    assert.ok((await rowsOf(open)).attempts > 1);
    await runRetention();
    assert.deepEqual(await rowsOf(open), { events: [], deliveries: [], attempts: 0 });
    await assertMoneyInvariants(delivered.id);
    await assertMoneyInvariants(hanging.id);
  });

  it('keeps a budget threshold event while its month can still emit, so a refund and new spend never send it twice, and deletes it once the month after has ended', async () => {
    const org = await createOrganization({ plan: 'pro', credits: 100_000 });
    const estimate: number = (await call('POST', '/v1/images', { key: org.liveKey, body: { model: 'flux-schnell', prompt: 'the estimate' } })).body.reserved_credits;
    const budget = 10 * estimate;
    const created = await call('POST', '/v1/api-keys', { key: org.liveKey, body: { name: 'budgeted', monthly_budget_usd: budget / 1000 } });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const key = { ...org, liveKey: created.body.secret as string };
    const fifties = async () =>
      stack()
        .knex('events')
        .where({ type: 'usage.budget_threshold', subject_id: `${created.body.id}:${new Date().toISOString().slice(0, 7)}:50` });

    // 4 images (40 %), then one that fails: its reservation crosses 50 % (the event), its refund
    // goes back to 40 %.
    for (let i = 0; i < 4; i++) await image(key, `spend ${i}`);
    const failed = await call('POST', '/v1/images', { key: key.liveKey, body: { model: 'flux-schnell', prompt: 'crosses, then refunded #fail' } });
    assert.equal(failed.body.status, 'failed', JSON.stringify(failed.body));
    const [event] = await fifties();
    assert.ok(event, 'the 50 % event');

    // Past the window, but its month can still emit: kept.
    sweepNow = new Date(Date.now() + 2 * DAY_MS);
    sweepDays = 1;
    await runRetention();
    assert.deepEqual(
      (await fifties()).map((e: { id: string }) => e.id),
      [event.id],
    );
    // Spend crosses 50 % again in the same month: the kept row still makes it once.
    await image(key, 'crosses again');
    assert.equal((await fifties()).length, 1);

    // Once the month after its own has ended, it goes.
    const now = new Date();
    sweepNow = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 2, 1, 1));
    sweepDays = 30;
    await runRetention();
    assert.equal((await fifties()).length, 0);
    await assertMoneyInvariants(org.id);
  });
});
