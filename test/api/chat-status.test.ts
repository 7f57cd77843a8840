import assert from 'node:assert/strict';
import { call, createOrganization, waitFor } from '../helpers/http';
import { assertMoneyInvariants } from '../helpers/money-invariants';
import { startExtraApi } from '../helpers/stack';

// A Chat completion's status is `succeeded` or `failed` only (spec §3, decisions §5): a chat that
// ends otherwise, or has not ended, while POST /v1/chat waits is answered as its Generation.

const chat = (content: string) => ({ model: 'gpt-5-mini', messages: [{ content }] });

describe('POST /v1/chat answers', function () {
  this.timeout(90_000);

  it('a chat cancelled while its request waits: 200 with the Generation, status canceled, its reservation refunded', async () => {
    const org = await createOrganization({ plan: 'pro', credits: 100_000 });
    // A sync job's provider call runs in a local activity, whose workflow task sees a cancel late
    // (its heartbeat, about 8 s): the chat takes longer than that, and its window is longer still.
    const api = await startExtraApi({ syncTimeoutMs: 40_000 });
    const pending = call('POST', '/v1/chat', { key: org.liveKey, body: chat('take your time #slow:30000'), baseUrl: api.url });
    // The generation's row is written when it is admitted, while the request still waits.
    const id = await waitFor(
      async () => {
        const listed = await call('GET', '/v1/generations?limit=1', { key: org.liveKey });
        return listed.body.data[0]?.id as string | undefined;
      },
      20_000,
      'the chat to be admitted',
    );
    const canceled = await call('POST', `/v1/generations/${id}/cancel`, { key: org.liveKey });
    // 202: still settling at the cancel's own deadline; the chat's answer below says how it ended.
    assert.ok([200, 202].includes(canceled.status), JSON.stringify(canceled.body));

    const res = await pending;
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.object, 'generation');
    assert.equal(res.body.id, id);
    assert.equal(res.body.status, 'canceled');
    assert.equal(res.body.charged_credits, 0);
    assert.equal(res.body.refunded_credits, res.body.reserved_credits);
    await assertMoneyInvariants(org.id);
  });

  it('a chat that finished: a Chat completion, succeeded or failed', async () => {
    const org = await createOrganization({ plan: 'pro', credits: 100_000 });
    const done = await call('POST', '/v1/chat', { key: org.liveKey, body: chat('hello') });
    assert.equal(done.status, 200, JSON.stringify(done.body));
    assert.deepEqual([done.body.object, done.body.status], ['chat.completion', 'succeeded']);
    const failed = await call('POST', '/v1/chat', { key: org.liveKey, body: chat('break #fail') });
    assert.equal(failed.status, 200, JSON.stringify(failed.body));
    assert.deepEqual([failed.body.object, failed.body.status], ['chat.completion', 'failed']);
    await assertMoneyInvariants(org.id);
  });

  it('a chat still running at the end of the sync window: 202 with the Generation to poll', async () => {
    const org = await createOrganization({ plan: 'pro', credits: 100_000 });
    const api = await startExtraApi({ syncTimeoutMs: 300 });
    const res = await call('POST', '/v1/chat', { key: org.liveKey, body: chat('slowly #slow:3000'), baseUrl: api.url });
    assert.equal(res.status, 202, JSON.stringify(res.body));
    assert.equal(res.body.object, 'generation');
    assert.ok(['queued', 'running'].includes(res.body.status), res.body.status);
    const finished = await waitFor(
      async () => {
        const got = await call('GET', `/v1/generations/${res.body.id}`, { key: org.liveKey });
        return got.body.status === 'succeeded' ? got.body : undefined;
      },
      20_000,
      'the chat to finish',
    );
    assert.equal(finished.charged_credits + finished.refunded_credits, finished.reserved_credits);
    await assertMoneyInvariants(org.id);
  });
});
