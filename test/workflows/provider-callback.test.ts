import assert from 'node:assert/strict';
import { tsToMs } from '@temporalio/common/lib/time';
import { createSimulator } from '../../activities/providers/simulator';
import type { ProviderAdapter, SubmitResult } from '../../activities/providers/types';
import { DEFAULT_GENERATION_TIMEOUTS } from '../../domain/generation-timeouts';
import { CALLBACK_EXPIRY_MARGIN_MS, CALLBACK_URL_LIFETIME_MS, providerCallbackUrl } from '../../domain/callback-token';
import { call, createOrganization, waitFor, waitForGeneration } from '../helpers/http';
import { assertLedgerBalanced, ledgerKinds } from '../helpers/ledger';
import { startExtraApi, stack } from '../helpers/stack';
import { startTestWorker } from '../helpers/test-worker';
import { providerDoubles } from '../helpers/provider-doubles';
import { silentLogger } from '../../lib/logger';
import { startSyncWorker, type SyncWorker } from '../../worker/sync-worker';

/** The provider's "ask again in" hint, with the submission and each poll: the poller's longest wait (MAX_POLL_INTERVAL_MS in activities/generations/polling.ts). */
const POLL_AFTER_MS = 5_000;

/**
 * A queue-style provider, like Replicate's or fal's queue, that suggests long poll intervals and
 * finishes a job when the test says so; the media itself is the real simulator's. It records the
 * callback URL each job was handed and when it was polled.
 */
function slowPollingProvider() {
  const simulator = createSimulator({ asyncLatencyMs: 0 });
  const finished = new Set<string>();
  const polls: { generationId: string; at: number; done: boolean }[] = [];
  const callbackUrls = new Map<string, { url: string; handedOutAt: number }>();
  /** What the simulator rendered at once for a sync job, held back until the test finishes the job, as fal's queue does. */
  const held = new Map<string, Extract<SubmitResult, { state: 'done' }>>();
  const adapter: ProviderAdapter = {
    name: 'slow-polling-queue',
    async submit({ callbackUrl, ...job }, ctx) {
      if (callbackUrl) callbackUrls.set(job.generationId, { url: callbackUrl, handedOutAt: Date.now() });
      // The simulator is not told the callback URL: only the test calls back.
      const submitted = await simulator.submit(job, ctx);
      if (submitted.state === 'pending') return { ...submitted, pollAfterMs: POLL_AFTER_MS };
      held.set(job.generationId, submitted);
      return { state: 'pending', providerJobId: `held-${job.generationId}`, pollAfterMs: POLL_AFTER_MS };
    },
    async poll(job, providerJobId, ctx) {
      const done = finished.has(job.generationId);
      polls.push({ generationId: job.generationId, at: Date.now(), done });
      if (!done) return { state: 'pending', pollAfterMs: POLL_AFTER_MS };
      return held.get(job.generationId) ?? simulator.poll(job, providerJobId, ctx);
    },
    cancel: (job, providerJobId) => simulator.cancel(job, providerJobId),
  };
  return { adapter, finished, polls, callbackUrls };
}

/**
 * A sync image queued at `provider` through the API at `apiUrl`: it is handed a callback URL that
 * expires with the sync provider budget, and the callback answers the waiting caller seconds before
 * the first poll was due (the hint woke the poll inside its local activity; no signal), charged once.
 */
async function syncImageCalledBack(apiUrl: string, provider: ReturnType<typeof slowPollingProvider>): Promise<void> {
  const org = await createOrganization();
  const before = new Set(provider.callbackUrls.keys());
  const answering = call('POST', '/v1/images', { key: org.liveKey, baseUrl: apiUrl, body: { model: 'flux-schnell', prompt: 'a lighthouse at dawn' } });
  // Without a URL for sync jobs (before issue 40) nothing is ever handed out here, and the caller waits out the poll.
  const id = await waitFor(async () => [...provider.callbackUrls.keys()].find((key) => !before.has(key)), 20_000, "the sync job's callback URL");
  const submittedAt: Date = await waitFor(async () => (await stack().knex('generations').where({ id }).first())?.provider_job_submitted_at, 20_000, 'the submission');
  const firstPollDue = submittedAt.getTime() + POLL_AFTER_MS;
  const expires = Number(new URL(provider.callbackUrls.get(id)!.url).searchParams.get('expires')) * 1000;
  const deadline = provider.callbackUrls.get(id)!.handedOutAt + DEFAULT_GENERATION_TIMEOUTS.providerStartToCloseMs + CALLBACK_EXPIRY_MARGIN_MS;
  assert.ok(Math.abs(expires - deadline) < 2_000, 'the URL expires with the sync provider budget');

  provider.finished.add(id);
  const res = await fetch(provider.callbackUrls.get(id)!.url, { method: 'POST' });
  assert.equal(res.status, 204);
  const answer = await answering;
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  assert.equal(answer.body.status, 'succeeded');
  assert.ok(Date.now() < firstPollDue - 1_500, `answered ${firstPollDue - Date.now()} ms before the first poll was due; needs 1500`);
  assert.equal(provider.polls.filter((p) => p.generationId === id).length, 1, 'polled once, after the callback');
  const events = (await stack().temporal.workflow.getHandle(id).fetchHistory()).events ?? [];
  assert.equal(events.filter((e) => e.workflowExecutionSignaledEventAttributes).length, 0, 'no signal');
  assert.ok((await ledgerKinds(id)).includes('capture'), 'charged once it succeeded');
  await assertLedgerBalanced(org.id);
}

describe('provider callbacks', function () {
  this.timeout(60_000);
  const provider = slowPollingProvider();
  let api: { url: string; close(): Promise<void> };
  let stopWorker: () => Promise<void>;

  before(async () => {
    // An API and a worker of this file's own, on their own task queue, with the provider above.
    const taskQueue = `provider-callbacks-${Date.now()}`;
    api = await startExtraApi({ taskQueue });
    const { apiDeps } = stack();
    const worker = await startTestWorker(taskQueue, {
      provider: provider.adapter,
      callbackUrlFor: (id, expiresAt) => providerCallbackUrl(api.url, apiDeps.providerCallbackSecret, id, expiresAt),
    });
    stopWorker = () => worker.stop();
  });
  after(async () => {
    await stopWorker();
    await api.close();
  });

  /** A 3D job (the cheapest async render) on this file's worker, once its provider job is recorded on the row. */
  async function startJob(orgKey: string, prompt: string) {
    const created = await call('POST', '/v1/three-d', { key: orgKey, baseUrl: api.url, body: { model: 'tripo-v2.5-text', prompt, mesh_complexity: 'low' } });
    assert.equal(created.status, 202, JSON.stringify(created.body));
    const id: string = created.body.id;
    const submittedAt: Date = await waitFor(async () => (await stack().knex('generations').where({ id }).first())?.provider_job_submitted_at, 20_000, 'the submission');
    return { id, submittedAt: submittedAt.getTime(), callback: provider.callbackUrls.get(id)! };
  }

  it('cut the wait short: a job done at the provider finishes when the callback arrives, polled once, seconds before its first poll was due, without touching the workflow', async () => {
    const org = await createOrganization();
    const { id, submittedAt, callback } = await startJob(org.liveKey, 'a teapot');
    // The poller waits for the provider's hint from the submission before it first asks.
    const firstPollDue = submittedAt + POLL_AFTER_MS;

    provider.finished.add(id);
    const calledBackAt = Date.now();
    const res = await fetch(callback.url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"status":"COMPLETED"}' });
    assert.equal(res.status, 204);

    const done = await waitForGeneration(id, org.liveKey);
    assert.equal(done.status, 'succeeded');
    const finishedAt = Date.parse(done.finished_at);
    assert.ok(finishedAt < firstPollDue - 1_500, `finished ${firstPollDue - finishedAt} ms before the first poll was due; needs 1500`);
    // The provider was asked once, right after the callback: not at once after the submission
    // (the job was queued), nor when its hint said.
    const polls = provider.polls.filter((p) => p.generationId === id);
    assert.equal(polls.length, 1, JSON.stringify(polls));
    assert.ok(polls[0]!.done && polls[0]!.at >= calledBackAt && polls[0]!.at < firstPollDue - 1_500, 'the one poll came right after the callback');

    // The hint woke the poll inside its activity: the workflow got no signal and its one polling
    // activity was neither cancelled nor replaced.
    const events = (await stack().temporal.workflow.getHandle(id).fetchHistory()).events ?? [];
    assert.equal(events.filter((e) => e.workflowExecutionSignaledEventAttributes).length, 0, 'no signal');
    assert.equal(events.filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'runProviderJob').length, 1, 'one activity submitted and polled');
    assert.equal(events.filter((e) => e.activityTaskCancelRequestedEventAttributes).length, 0, 'nothing cancelled');
    assert.ok(tsToMs(events[events.length - 1]!.eventTime) < firstPollDue, 'the workflow completed before the first poll was due');

    assert.deepEqual(await ledgerKinds(id), ['reserve', 'capture']);
    await assertLedgerBalanced(org.id);
  });

  it('a sync image queued at the provider gets a callback URL too: the callback answers the waiting caller seconds before the first poll was due', async () => {
    await syncImageCalledBack(api.url, provider);
  });

  it('hands out a URL that expires with its job, and refuses it expired or tampered with', async () => {
    const org = await createOrganization();
    const { id, callback } = await startJob(org.liveKey, 'a vase');
    const url = new URL(callback.url);
    const expires = Number(url.searchParams.get('expires')) * 1000;
    const deadline = callback.handedOutAt + DEFAULT_GENERATION_TIMEOUTS.asyncJobTimeoutMs + CALLBACK_EXPIRY_MARGIN_MS;
    assert.ok(Math.abs(expires - deadline) < 2_000, `expires ${new Date(expires).toISOString()}, deadline ${new Date(deadline).toISOString()}`);

    const post = (target: URL | string, baseUrl?: string) => {
      const u = new URL(target);
      return fetch(baseUrl ? `${baseUrl}${u.pathname}${u.search}` : u, { method: 'POST' });
    };
    const refusedWith = async (res: Response) => {
      assert.equal(res.status, 403);
      return ((await res.json()) as { error: { code: string } }).error.code;
    };
    const later = new URL(url);
    later.searchParams.set('expires', String(Number(url.searchParams.get('expires')) + 3600));
    const flipped = new URL(url);
    const token = url.searchParams.get('token')!;
    flipped.searchParams.set('token', (token[0] === 'a' ? 'b' : 'a') + token.slice(1));
    const withoutExpiry = new URL(url);
    withoutExpiry.searchParams.delete('expires');
    const otherJob = new URL(url.href.replace(id, 'gen_someoneelse'));
    for (const bad of [later, flipped, withoutExpiry, otherJob]) assert.equal(await refusedWith(await post(bad)), 'invalid_signature', bad.search);

    // The same URL once its job's deadline has passed (an API whose clock is past it) is refused too.
    const afterDeadline = await startExtraApi({ clock: () => new Date(Date.now() + CALLBACK_URL_LIFETIME_MS + 60_000) });
    assert.equal(await refusedWith(await post(url, afterDeadline.url)), 'invalid_signature');
    await afterDeadline.close();

    // Before it, the URL works: here it wakes the job, which the provider has finished meanwhile.
    provider.finished.add(id);
    assert.equal((await post(url)).status, 204);
    assert.equal((await waitForGeneration(id, org.liveKey)).status, 'succeeded');
    await assertLedgerBalanced(org.id);
  });

  it('refuses a callback URL the service did not hand out, and ignores a late one', async () => {
    const org = await createOrganization();
    const image = await call('POST', '/v1/images', { key: org.liveKey, body: { model: 'flux-schnell', prompt: 'done' } });
    const valid = providerCallbackUrl(stack().apiUrl, stack().apiDeps.providerCallbackSecret, image.body.id);
    const forged = `${stack().apiUrl}/v1/provider-callbacks/${image.body.id}?expires=${Math.floor(Date.now() / 1000) + 600}&token=${'0'.repeat(64)}`;
    const refused = await fetch(forged, { method: 'POST' });
    assert.equal(refused.status, 403);
    assert.equal(((await refused.json()) as { error: { code: string } }).error.code, 'invalid_signature');
    assert.equal((await fetch(valid.replace(image.body.id, 'gen_other'), { method: 'POST' })).status, 403);
    // A callback for a finished generation changes nothing.
    assert.equal((await fetch(valid, { method: 'POST' })).status, 204);
    assert.equal((await call('GET', `/v1/generations/${image.body.id}`, { key: org.liveKey })).body.status, 'succeeded');
  });
});

describe("provider callbacks to a sync job on the API's own worker (API_EMBEDDED_WORKER)", function () {
  this.timeout(60_000);
  const provider = slowPollingProvider();
  let api: { url: string; close(): Promise<void> };
  let syncWorker: SyncWorker;

  before(async () => {
    // An API whose own sync worker (on a sync queue of this file's own) has fal stood in for by the
    // provider above; the callback reaches the stack's API, whose NOTIFY must wake this worker's poll.
    const { config, workflowBundle } = stack();
    const own = { ...config, syncTaskQueue: `provider-callbacks-sync-${Date.now()}` };
    syncWorker = await startSyncWorker(own, silentLogger, {
      address: config.temporalAddress!,
      databaseUrl: config.databaseUrl!,
      workflowBundle,
      providerAdapters: (simulator) => ({ ...providerDoubles(simulator), fal: provider.adapter }),
    });
    api = await startExtraApi({ syncStarts: { client: syncWorker.client, taskQueue: syncWorker.taskQueue } });
  });
  after(async () => {
    await api.close();
    await syncWorker.stop();
  });

  it('wake its poll: the callback answers the waiting caller seconds before the first poll was due', async () => {
    await syncImageCalledBack(api.url, provider);
  });
});
