import assert from 'node:assert/strict';
import { MockActivityEnvironment } from '@temporalio/testing';
import { DefaultLogger } from '@temporalio/worker';
import { createAnomalyActivities } from '../../activities/anomaly-detector';
import type { AnomalySettings } from '../../domain/spending-anomaly';
import { randomBase62 } from '../../lib/ids';
import { ANOMALY_DETECTOR_SCHEDULE_ID } from '../../worker/anomaly-detector-schedule';
import type { AnomalyDetectorResult } from '../../workflows/anomaly-detector';
import { call, createOrganization, waitForGeneration, type TestOrganization } from '../helpers/http';
import { assertLedgerBalanced } from '../helpers/ledger';
import { killHard, spawnWorkerProcess } from '../helpers/service-process';
import { stack } from '../helpers/stack';

// The spending anomaly detector against real spend made through the API. The detector's clock is
// injected: moving it forward places earlier spend before the 10-minute window, in the baseline.
// The activities are called for the test's own organization only (the sweep's candidates may
// include other tests' organizations, which these settings must not pause).

const env = new MockActivityEnvironment(undefined, { logger: new DefaultLogger('ERROR') });
const MINUTE = 60_000;

function detector(settings: AnomalySettings, clock: () => Date) {
  return createAnomalyActivities({ knex: stack().knex, repos: stack().repos, anomaly: settings, clock });
}
/** The sweep's candidates (env.run cannot infer an activity's result type). */
async function candidates(activities: ReturnType<typeof detector>): Promise<string[]> {
  return env.run<[], string[], typeof activities.findSpendingOrganizations>(activities.findSpendingOrganizations);
}
const minutesFromNow = (minutes: number) => () => new Date(Date.now() + minutes * MINUTE);

/** Veo 3 at its 8 s on the Studio plan: 5,120 credits, the burst. */
async function video(key: string): Promise<{ id: string; reserved_credits: number }> {
  const res = await call('POST', '/v1/videos', { key, body: { model: 'veo-3', prompt: 'a storm over the sea' } });
  assert.equal(res.status, 202, JSON.stringify(res.body));
  return waitForGeneration(res.body.id, key);
}

/** A small FLUX schnell image: a few credits. */
async function image(key: string) {
  const res = await call('POST', '/v1/images', { key, body: { model: 'flux-schnell', prompt: 'a quiet harbour' } });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body;
}

async function anomalyEvents(organizationId: string) {
  return stack().knex('events').where({ organization_id: organizationId, type: 'usage.anomaly_detected' }).orderBy('created_at');
}

async function isPaused(org: TestOrganization): Promise<boolean> {
  const res = await call('GET', `/admin/v1/organizations/${org.id}`, { key: stack().adminToken });
  assert.equal(res.status, 200);
  return res.body.paused;
}

describe('spending anomaly detector', () => {
  it('pauses an organization whose burst is above the floor and factor × its baseline, with one event', async () => {
    const org = await createOrganization({ plan: 'studio', credits: 50_000 });
    const burst = await video(org.liveKey);
    const clock = minutesFromNow(1);
    const now = clock();
    const activities = detector({ factor: 10, floorCredits: 1_000 }, () => now);

    assert.ok((await candidates(activities)).includes(org.id));
    assert.equal(await env.run(activities.checkSpendingAnomaly, org.id), true);
    assert.equal(await env.run(activities.checkSpendingAnomaly, org.id), false, 'a second run finds it paused');

    assert.equal(await isPaused(org), true);
    const events = await anomalyEvents(org.id);
    assert.equal(events.length, 1);
    assert.equal(events[0].environment, 'live');
    assert.deepEqual(events[0].data, {
      organization_id: org.id,
      window_spend_credits: burst.reserved_credits,
      window_spend_usd: burst.reserved_credits / 1000,
      baseline_average_credits: 0,
      factor: 10,
      floor_credits: 1_000,
      window_start: new Date(now.getTime() - 10 * MINUTE).toISOString(),
      window_end: now.toISOString(),
      paused_at: now.toISOString(),
    });

    // The pause reaches the API's principal cache as an operator's does.
    await stack().apiDeps.principals.settle();
    const refused = await call('POST', '/v1/images', { key: org.liveKey, body: { model: 'flux-schnell', prompt: 'more' } });
    assert.equal(refused.status, 403);
    assert.equal(refused.body.error.code, 'organization_paused');
    assert.equal((await call('GET', `/v1/generations/${burst.id}`, { key: org.liveKey })).status, 200, 'reads still work');
    assert.equal((await call('GET', '/v1/balance', { key: org.liveKey })).status, 200);
    await assertLedgerBalanced(org.id);
  });

  it('does not pause on steady spend: a window not above factor × the 7-day average', async () => {
    const org = await createOrganization({ plan: 'studio', credits: 50_000 });
    await video(org.liveKey);
    // Everything before this moment becomes the baseline once the clock is 10 minutes past it.
    const { rows } = await stack().knex.raw('SELECT clock_timestamp() AS t');
    const windowStart: Date = rows[0].t;
    const small = await image(org.liveKey);
    // 5,120 credits over 1,008 windows is an average of about 5; 10 × that is above the image's spend.
    assert.ok(small.reserved_credits > 1 && small.reserved_credits <= (10 * 5_120) / 1_008, `image spend ${small.reserved_credits}`);
    const activities = detector({ factor: 10, floorCredits: 1 }, () => new Date(windowStart.getTime() + 10 * MINUTE));

    assert.ok((await candidates(activities)).includes(org.id), 'above the floor, so judged');
    assert.equal(await env.run(activities.checkSpendingAnomaly, org.id), false);
    assert.equal(await isPaused(org), false);
    assert.equal((await anomalyEvents(org.id)).length, 0);
    await assertLedgerBalanced(org.id);
  });

  it('does not pause a burst at or below the floor', async () => {
    const org = await createOrganization({ plan: 'studio', credits: 50_000 });
    const burst = await video(org.liveKey);
    const activities = detector({ factor: 10, floorCredits: burst.reserved_credits }, minutesFromNow(1));

    assert.ok(!(await candidates(activities)).includes(org.id));
    assert.equal(await env.run(activities.checkSpendingAnomaly, org.id), false);
    assert.equal(await isPaused(org), false);
    await assertLedgerBalanced(org.id);
  });

  it('never counts test keys: their spend is not live spend', async () => {
    const org = await createOrganization({ plan: 'studio', credits: 50_000 });
    await video(org.testKey);
    await video(org.testKey);
    const activities = detector({ factor: 10, floorCredits: 0 }, minutesFromNow(1));

    assert.ok(!(await candidates(activities)).includes(org.id));
    assert.equal(await env.run(activities.checkSpendingAnomaly, org.id), false);
    assert.equal(await isPaused(org), false);
    await assertLedgerBalanced(org.id);
  });

  it('lets an unpaused organization spend again, and does not pause it twice for the same burst', async () => {
    const org = await createOrganization({ plan: 'studio', credits: 50_000 });
    await video(org.liveKey);
    const settings = { factor: 10, floorCredits: 1_000 };
    assert.equal(await env.run(detector(settings, minutesFromNow(1)).checkSpendingAnomaly, org.id), true);

    const unpaused = await call('PATCH', `/admin/v1/organizations/${org.id}`, { key: stack().adminToken, body: { paused: false } });
    assert.equal(unpaused.status, 200);
    assert.equal(unpaused.body.paused, false);
    const watchFrom = (await stack().repos.organizations.findById(org.id))?.spend_watch_from;
    assert.ok(watchFrom instanceof Date, 'unpausing starts a new watch');
    await image(org.liveKey);

    // The burst is still inside the last 10 minutes, but before the unpause: it is not judged again.
    const next = detector(settings, minutesFromNow(2));
    assert.ok(!(await candidates(next)).includes(org.id));
    assert.equal(await env.run(next.checkSpendingAnomaly, org.id), false);
    assert.equal(await isPaused(org), false);
    assert.equal((await anomalyEvents(org.id)).length, 1);

    // Unpausing an organization that is not paused leaves the watch where it was.
    await call('PATCH', `/admin/v1/organizations/${org.id}`, { key: stack().adminToken, body: { paused: false } });
    assert.deepEqual((await stack().repos.organizations.findById(org.id))?.spend_watch_from, watchFrom);

    // A new burst after the unpause is judged as usual.
    await video(org.liveKey);
    assert.equal(await env.run(detector(settings, minutesFromNow(3)).checkSpendingAnomaly, org.id), true);
    assert.equal((await anomalyEvents(org.id)).length, 2);
    await assertLedgerBalanced(org.id);
  });

  it('runs every minute from the anomaly-detector Schedule, and its workflow on a worker with the default floor pauses a 50,000-credit burst', async () => {
    const description = await stack().temporal.schedule.getHandle(ANOMALY_DETECTOR_SCHEDULE_ID).describe();
    assert.equal(description.action.type, 'startWorkflow');
    assert.equal(description.action.type === 'startWorkflow' && description.action.workflowType, 'anomalyDetectorWorkflow');

    // The test stack's own worker has the floor out of reach (test/helpers/stack.ts); a worker
    // process with the production defaults (50,000 credits in 10 minutes) runs this workflow.
    const taskQueue = `anomaly-${randomBase62(8)}`;
    const worker = await spawnWorkerProcess(taskQueue, { ANOMALY_FLOOR_CREDITS: '50000', ANOMALY_FACTOR: '10' });
    try {
      const org = await createOrganization({ plan: 'studio', credits: 100_000 });
      const bursts = await Promise.all(Array.from({ length: 10 }, () => video(org.liveKey)));
      assert.ok(bursts.reduce((sum, g) => sum + g.reserved_credits, 0) > 50_000);
      const result: AnomalyDetectorResult = await stack().temporal.workflow.execute('anomalyDetectorWorkflow', {
        taskQueue,
        workflowId: `anomaly-detector-test-${randomBase62(12)}`,
      });
      assert.ok(result.paused >= 1, JSON.stringify(result));
      assert.equal(await isPaused(org), true);
      assert.equal((await anomalyEvents(org.id)).length, 1);
      await assertLedgerBalanced(org.id);
    } finally {
      await killHard(worker);
    }
  });
});
