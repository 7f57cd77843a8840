import assert from 'node:assert/strict';
import { providerCallbackUrl } from '../../lib/callback-token';
import { call, createOrganization, waitFor, waitForGeneration } from '../helpers/http';
import { assertLedgerBalanced, ledgerKinds } from '../helpers/ledger';
import { stack } from '../helpers/stack';

const callbackUrl = (id: string) => providerCallbackUrl(stack().apiUrl, 'test-url-signing-secret', id);

describe('provider callbacks', function () {
  this.timeout(60_000);

  it('wake the workflow: the current poll is cut short and a new one starts at once; charged once', async () => {
    const org = await createOrganization();
    const created = await call('POST', '/v1/videos', { key: org.liveKey, body: { model: 'hailuo-02', prompt: 'wait #slow:4000' } });
    const id: string = created.body.id;
    await waitFor(async () => ((await stack().repos.generations.findById(id))?.provider_job_id ? true : undefined));

    const res = await fetch(callbackUrl(id), { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"status":"IN_PROGRESS"}' });
    assert.equal(res.status, 204);
    const done = await waitForGeneration(id, org.liveKey);
    assert.equal(done.status, 'succeeded');
    assert.deepEqual(await ledgerKinds(id), ['reserve', 'capture']);
    await assertLedgerBalanced(org.id);

    const events = (await stack().temporal.workflow.getHandle(id).fetchHistory()).events ?? [];
    assert.ok(events.some((e) => e.workflowExecutionSignaledEventAttributes?.signalName === 'providerCallback'));
    const polls = events.filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'awaitProviderJob');
    // Ours, and possibly the simulator's own when the job finished: each replaces the sleeping poll.
    assert.ok(polls.length >= 2, 'the callback replaced the sleeping poll with a new one');
  });

  it('refuses a callback URL the service did not hand out, and ignores a late one', async () => {
    const org = await createOrganization();
    const image = await call('POST', '/v1/images', { key: org.liveKey, body: { model: 'flux-schnell', prompt: 'done' } });
    const forged = `${stack().apiUrl}/v1/provider-callbacks/${image.body.id}?token=${'0'.repeat(64)}`;
    const refused = await fetch(forged, { method: 'POST' });
    assert.equal(refused.status, 403);
    assert.equal(((await refused.json()) as { error: { code: string } }).error.code, 'invalid_signature');
    assert.equal((await fetch(callbackUrl(image.body.id).replace(image.body.id, 'gen_other'), { method: 'POST' })).status, 403);
    // A callback for a finished generation changes nothing.
    assert.equal((await fetch(callbackUrl(image.body.id), { method: 'POST' })).status, 204);
    assert.equal((await call('GET', `/v1/generations/${image.body.id}`, { key: org.liveKey })).body.status, 'succeeded');
  });
});
