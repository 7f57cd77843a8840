import assert from 'node:assert/strict';
import { createOutputRetentionActivities } from '../../activities/output-retention';
import { createS3Storage } from '../../storage/s3-storage';
import type { Storage } from '../../storage/types';
import { OUTPUT_RETENTION_SCHEDULE_ID } from '../../worker/output-retention-schedule';
import type { OutputRetentionResult } from '../../workflows/output-retention';
import { call, createOrganization, waitFor, type TestOrganization } from '../helpers/http';
import { assertMoneyInvariants } from '../helpers/money-invariants';
import { S3RVER_CREDENTIALS, startS3rver } from '../helpers/s3';
import { stack } from '../helpers/stack';
import { startTestWorker } from '../helpers/test-worker';

// Output retention (issue 42 item 3), through the API and the production sweep: a request's
// `retention` (or its organization's default) is every output's `expires_at`; the sweep removes
// expired files from storage (local disk, and S3 against s3rver) and marks the outputs deleted; an
// expired or deleted output's URL answers 410 `output_expired`; DELETE /v1/generations/{id}/outputs
// removes a job's files at once; the cache never answers with a gone output; the money never moves.
// The sweep runs on a worker of this test's own with the production activity, its clock (and its
// storage, for S3) injected, never by rewriting rows. That clock expires every row in the database
// whose expiry it passes, so assertions look at this test's rows only.

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const QUEUE = 'output-retention-test';
const BUCKET = 'retention-bucket';

/** The sweep's clock and storage, read at each batch. */
let sweepNow = new Date();
let sweepStorage: Pick<Storage, 'delete'> | undefined;

async function runSweep(): Promise<OutputRetentionResult> {
  return stack().temporal.workflow.execute('outputRetentionWorkflow', {
    taskQueue: QUEUE,
    workflowId: `output-retention-test-${Date.now()}-${Math.random().toString(36).slice(2)}`,
    args: [],
  });
}

async function image(org: TestOrganization, extra: Record<string, unknown> = {}, key = org.liveKey) {
  const res = await call('POST', '/v1/images', { key, body: { model: 'flux-schnell', prompt: `retention ${Math.random()}`, ...extra } });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.equal(res.body.status, 'succeeded');
  return res.body;
}

/** The storage keys of a generation's outputs (what the API does not show). */
async function storageKeys(generationId: string): Promise<string[]> {
  return (await stack().knex('generation_outputs').where({ generation_id: generationId }).orderBy('position').select('storage_key')).map(
    (r: { storage_key: string }) => r.storage_key,
  );
}

/** A generation's money as recorded: its row's three amounts and its ledger rows. */
async function moneyOf(generationId: string) {
  const { knex } = stack();
  const gen = await knex('generations').where({ id: generationId }).first('status', 'reserved_credits', 'charged_credits', 'refunded_credits');
  const ledger = await knex('ledger_entries').where({ generation_id: generationId }).orderBy('id').select('kind', 'available_delta', 'reserved_delta');
  return { gen, ledger };
}

const near = (iso: string | null, expectedMs: number, what: string) => {
  assert.ok(iso, `${what}: an expires_at`);
  assert.ok(Math.abs(new Date(iso).getTime() - expectedMs) < 60_000, `${what}: ${iso} is not about ${new Date(expectedMs).toISOString()}`);
};

async function assertGone(url: string, how: RegExp) {
  const res = await fetch(url);
  const body = (await res.json()) as { error: { code: string; message: string } };
  assert.equal(res.status, 410, JSON.stringify(body));
  assert.equal(body.error.code, 'output_expired');
  assert.match(body.error.message, how);
  assert.match(body.error.message, /generation record remains/);
}

describe('output retention', function () {
  this.timeout(180_000);

  let worker: { stop(): Promise<void> };
  let s3: { endpoint: string; close(): Promise<void> };

  before(async () => {
    s3 = await startS3rver(BUCKET);
    worker = await startTestWorker(QUEUE, {
      activities: () => ({
        deleteExpiredOutputBatch: () =>
          createOutputRetentionActivities({ knex: stack().knex, storage: sweepStorage ?? stack().apiDeps.storage, clock: () => sweepNow }).deleteExpiredOutputBatch(),
      }),
    });
  });

  after(async () => {
    await worker.stop();
    await s3.close();
  });

  it('is a Schedule the worker created, running the sweep every minute', async () => {
    const described = await stack().temporal.schedule.getHandle(OUTPUT_RETENTION_SCHEDULE_ID).describe();
    assert.equal(described.action.type, 'startWorkflow');
    assert.equal(described.action.workflowType, 'outputRetentionWorkflow');
    assert.deepEqual(
      described.spec.intervals?.map((i) => i.every),
      [60_000],
    );
  });

  it('refuses a retention too short, too long or malformed (400) and forever outside Enterprise (402), charging nothing', async () => {
    const org = await createOrganization({ plan: 'studio', credits: 10_000 });
    for (const [retention, code] of [
      ['30m', 'validation_failed'],
      ['366d', 'validation_failed'],
      ['7 days', 'validation_failed'],
      [7, 'validation_failed'],
      ['forever', 'plan_upgrade_required'],
    ] as const) {
      const res = await call('POST', '/v1/images', { key: org.liveKey, body: { model: 'flux-schnell', prompt: 'refused', retention } });
      assert.equal(res.body.error?.code, code, `${retention}: ${JSON.stringify(res.body)}`);
      assert.equal(res.status, code === 'validation_failed' ? 400 : 402);
      assert.equal(res.body.error.param, 'retention');
    }
    const comparison = await call('POST', '/v1/comparisons', { key: org.liveKey, body: { models: ['flux-schnell', 'flux-dev'], prompt: 'refused', retention: '0d' } });
    assert.equal(comparison.status, 400, JSON.stringify(comparison.body));
    assert.equal((await call('GET', '/v1/generations', { key: org.liveKey })).body.data.length, 0, 'nothing was created');
    const balance = await assertMoneyInvariants(org.id);
    assert.equal(balance.availableCredits, 10_000);
  });

  it('shows expires_at from the request, else the organization default the operator set, else 30 days; forever (Enterprise) is null', async () => {
    const org = await createOrganization({ credits: 100_000 });
    const start = Date.now();
    near((await image(org)).outputs[0].expires_at, start + 30 * DAY_MS, 'the default');
    near((await image(org, { retention: '2h' })).outputs[0].expires_at, start + 2 * HOUR_MS, "the request's");

    const patched = await call('PATCH', `/admin/v1/organizations/${org.id}`, { key: stack().adminToken, body: { retention_days: 7 } });
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    assert.equal(patched.body.retention_days, 7);
    near((await image(org)).outputs[0].expires_at, start + 7 * DAY_MS, "the organization's");
    near((await image(org, { retention: '90m' })).outputs[0].expires_at, start + 90 * 60_000, "the request's over the organization's");
    const fetched = await image(org, { retention: '3d' });
    near((await call('GET', `/v1/generations/${fetched.id}`, { key: org.liveKey })).body.outputs[0].expires_at, start + 3 * DAY_MS, 'read back');
    assert.equal((await call('PATCH', `/admin/v1/organizations/${org.id}`, { key: stack().adminToken, body: { retention_days: 400 } })).status, 400);

    const comparison = await call('POST', '/v1/comparisons', { key: org.liveKey, body: { models: ['flux-schnell', 'imagen-4-fast'], prompt: 'compared', retention: '5h' } });
    assert.equal(comparison.status, 202, JSON.stringify(comparison.body));
    const done = await waitFor(
      async () => {
        const res = await call('GET', `/v1/comparisons/${comparison.body.id}`, { key: org.liveKey });
        return res.body.status !== 'running' && res.body.status !== 'queued' && res.body.generations.every((g: { outputs: unknown[] }) => g.outputs.length > 0) && res.body;
      },
      60_000,
      'the comparison',
    );
    for (const child of done.generations) near(child.outputs[0].expires_at, start + 5 * HOUR_MS, `child ${child.model}`);

    const enterprise = await createOrganization({ credits: 100_000, enterprise: true });
    assert.equal((await image(enterprise, { retention: 'forever' })).outputs[0].expires_at, null);
    await assertMoneyInvariants(org.id);
    await assertMoneyInvariants(enterprise.id);
  });

  it('the sweep removes expired files from local storage and marks the outputs deleted; their URLs answer 410; the money is untouched', async () => {
    const org = await createOrganization({ credits: 100_000 });
    const short = await image(org, { retention: '1h', num_outputs: 2 });
    const kept = await image(org, { retention: '2h' });
    const failed = await call('POST', '/v1/images', { key: org.liveKey, body: { model: 'flux-schnell', prompt: 'no outputs #fail', retention: '1h' } });
    assert.equal(failed.body.status, 'failed', JSON.stringify(failed.body));
    const [shortKeys, keptKeys] = [await storageKeys(short.id), await storageKeys(kept.id)];
    assert.equal(shortKeys.length, 2);
    const { storage } = stack().apiDeps;
    for (const key of [...shortKeys, ...keptKeys]) assert.ok(await storage.read(key), `${key} is stored`);
    const before = await moneyOf(short.id);
    const url = short.outputs[0].url as string;
    assert.equal((await fetch(url)).status, 200, 'served before its expiry');

    sweepStorage = undefined;
    sweepNow = new Date(Date.now() + HOUR_MS + 60_000);
    const result = await runSweep();
    assert.ok(result.outputs >= 2 && result.files >= 2, JSON.stringify(result));

    for (const key of shortKeys) assert.equal(await storage.read(key), undefined, `${key} is gone`);
    for (const key of keptKeys) assert.ok(await storage.read(key), `${key}, not expired yet, is kept`);
    await assertGone(url, /expired at/);
    const after = (await call('GET', `/v1/generations/${short.id}`, { key: org.liveKey })).body;
    assert.equal(after.status, 'succeeded');
    assert.equal(after.outputs.length, 2, 'the outputs stay listed');
    for (const output of after.outputs) {
      assert.ok(output.deleted_at, 'marked deleted');
      assert.equal(output.expires_at, short.outputs[0].expires_at);
      await assertGone(output.url, new RegExp(`expired at ${output.expires_at}`));
    }
    assert.deepEqual(await moneyOf(short.id), before, 'the record and its ledger rows are as they were');
    assert.equal((await fetch(kept.outputs[0].url)).status, 200);
    // Finished jobs past their expiry are done for good (with outputs or none); the sweep never reads them again.
    const swept = async (id: string) => (await stack().knex('output_expiries').where({ generation_id: id }).first('swept')).swept as boolean;
    assert.deepEqual([await swept(short.id), await swept(failed.body.id), await swept(kept.id)], [true, true, false]);

    // Idempotent: a second run finds nothing more of these.
    await runSweep();
    assert.deepEqual(await moneyOf(short.id), before);
    await assertMoneyInvariants(org.id);
  });

  it('the sweep removes expired files from S3 storage', async () => {
    const org = await createOrganization({ credits: 100_000 });
    const bucket = createS3Storage({ bucket: BUCKET, region: 'us-east-1', endpoint: s3.endpoint, forcePathStyle: true, credentials: S3RVER_CREDENTIALS, urlTtlSeconds: 3600 });
    const short = await image(org, { retention: '1h' });
    const kept = await image(org, { retention: '3h' });
    // The stack stores locally; the same files go to the bucket under the same keys, as STORAGE=s3 would put them.
    const keys = [...(await storageKeys(short.id)), ...(await storageKeys(kept.id))];
    for (const key of keys) await bucket.put(key, (await stack().apiDeps.storage.read(key))!, 'image/png');
    const before = await moneyOf(short.id);

    sweepStorage = bucket;
    sweepNow = new Date(Date.now() + HOUR_MS + 60_000);
    try {
      await runSweep();
    } finally {
      sweepStorage = undefined;
    }
    assert.equal(await bucket.read(keys[0]!), undefined, 'the expired object is gone from the bucket');
    assert.ok(await bucket.read(keys[1]!), 'the other is kept');
    const after = (await call('GET', `/v1/generations/${short.id}`, { key: org.liveKey })).body;
    assert.ok(after.outputs[0].deleted_at);
    // A gone output's URL is the API's own, which answers 410 on either backend.
    await assertGone(after.outputs[0].url, /expired at/);
    assert.deepEqual(await moneyOf(short.id), before);
    await assertMoneyInvariants(org.id);
  });

  it("S3: a live output's URL never outlives its expiry, and a gone one's is the API's", async () => {
    const bucket = createS3Storage({
      bucket: BUCKET,
      region: 'us-east-1',
      endpoint: s3.endpoint,
      forcePathStyle: true,
      credentials: S3RVER_CREDENTIALS,
      urlTtlSeconds: 86_400,
      apiUrlSigner: stack().apiDeps.urlSigner,
    });
    const presigned = new URL(await bucket.signedGetUrl('outputs/gen_x/0.png', new Date(Date.now() + 600_000)));
    const expires = Number(presigned.searchParams.get('X-Amz-Expires'));
    assert.ok(expires <= 600 && expires > 590, String(expires));
    assert.equal(new URL(await bucket.signedGetUrl('outputs/gen_x/0.png')).searchParams.get('X-Amz-Expires'), '86400');
    assert.equal(stack().apiDeps.urlSigner.keyOf(new URL(await bucket.servedGetUrl('outputs/gen_x/0.png'))), 'outputs/gen_x/0.png');
  });

  it('DELETE /v1/generations/{id}/outputs removes the files at once, keeps the record and its charge, is idempotent, and is 404 for another organization', async () => {
    const org = await createOrganization({ credits: 100_000 });
    const other = await createOrganization({ credits: 100_000 });
    const gen = await image(org, { num_outputs: 2 });
    const keys = await storageKeys(gen.id);
    const before = await moneyOf(gen.id);
    assert.ok(before.gen.charged_credits > 0);

    assert.equal((await call('DELETE', `/v1/generations/${gen.id}/outputs`, { key: other.liveKey })).status, 404);
    assert.ok(await stack().apiDeps.storage.read(keys[0]!), "another organization's call removed nothing");

    const deleted = await call('DELETE', `/v1/generations/${gen.id}/outputs`, { key: org.liveKey });
    assert.equal(deleted.status, 200, JSON.stringify(deleted.body));
    assert.equal(deleted.body.id, gen.id);
    assert.equal(deleted.body.charged_credits, gen.charged_credits);
    for (const output of deleted.body.outputs) assert.ok(output.deleted_at);
    for (const key of keys) assert.equal(await stack().apiDeps.storage.read(key), undefined, `${key} is gone`);
    await assertGone(gen.outputs[0].url, /was deleted/);

    const again = await call('DELETE', `/v1/generations/${gen.id}/outputs`, { key: org.liveKey });
    assert.equal(again.status, 200);
    assert.deepEqual(
      again.body.outputs.map((o: { deleted_at: string }) => o.deleted_at),
      deleted.body.outputs.map((o: { deleted_at: string }) => o.deleted_at),
    );
    assert.deepEqual(await moneyOf(gen.id), before, 'the record and its ledger rows are as they were');
    await assertMoneyInvariants(org.id);
    await assertMoneyInvariants(other.id);
  });

  it('never answers from the cache with an expired or deleted output: the request runs and is charged', async () => {
    const org = await createOrganization({ credits: 100_000 });
    const body = { prompt: `cached ${Math.random()}`, seed: 42 };
    const first = await image(org, { ...body, retention: '1h' });
    const hit = await image(org, body);
    assert.equal(hit.cache_hit, true, 'a hit while the source is live');

    // Past the source's expiry by the API's clock, before any sweep ran: a miss.
    const { apiDeps } = stack();
    const realClock = apiDeps.clock;
    apiDeps.clock = () => new Date(Date.now() + HOUR_MS + 60_000);
    let expiredMiss;
    try {
      expiredMiss = await image(org, body);
    } finally {
      apiDeps.clock = realClock;
    }
    assert.equal(expiredMiss.cache_hit, false);
    assert.ok(expiredMiss.charged_credits > 0);

    // expiredMiss is now the newest source; once its outputs are deleted, a miss again.
    assert.equal((await image(org, body)).cache_hit, true);
    assert.equal((await call('DELETE', `/v1/generations/${expiredMiss.id}/outputs`, { key: org.liveKey })).status, 200);
    assert.equal((await call('DELETE', `/v1/generations/${first.id}/outputs`, { key: org.liveKey })).status, 200);
    const deletedMiss = await image(org, body);
    assert.equal(deletedMiss.cache_hit, false);
    assert.ok(deletedMiss.charged_credits > 0);
    await assertMoneyInvariants(org.id);
  });
});
