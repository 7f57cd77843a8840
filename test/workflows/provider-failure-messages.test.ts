import assert from 'node:assert/strict';
import type { Storage } from '../../storage/types';
import { call, createOrganization, waitFor } from '../helpers/http';
import { assertMoneyInvariants } from '../helpers/money-invariants';
import { stack, startExtraApi } from '../helpers/stack';
import { startTestWorker } from '../helpers/test-worker';

// What a failed generation tells its caller of a failure that was ours (issue 33): that it was
// ours and refunded, never the failure's own text, which names internal hosts and addresses. That
// text is for the worker's log, with the generation id.

describe('a provider step that fails on our side (storage unreachable)', function () {
  this.timeout(90_000);

  it('fails internal_error with a message that names no internal address, and refunds', async () => {
    const base = stack().apiDeps.storage;
    const unreachable: Storage = Object.assign(Object.create(base) as Storage, {
      async put(): Promise<void> {
        throw Object.assign(new Error('connect ECONNREFUSED 10.0.3.9:9000'), { code: 'ECONNREFUSED' });
      },
    });
    const taskQueue = 'test-storage-unreachable';
    const worker = await startTestWorker(taskQueue, { storage: unreachable });
    try {
      const api = await startExtraApi({ taskQueue });
      const org = await createOrganization();
      const created = await call('POST', '/v1/images', { key: org.liveKey, baseUrl: api.url, body: { model: 'flux-schnell', prompt: 'nowhere to keep it' } });
      assert.ok([200, 202].includes(created.status), JSON.stringify(created.body));
      const gen = await waitFor(
        async () => {
          const res = await call('GET', `/v1/generations/${created.body.id}`, { key: org.liveKey, baseUrl: api.url });
          return res.body?.status === 'failed' ? res.body : undefined;
        },
        60_000,
        'the generation to fail',
      );
      assert.deepEqual([gen.error_code, gen.error_source, gen.retryable], ['internal_error', 'gateway', true]);
      assert.equal(gen.error_message, 'The generation failed on our side; its credits were refunded. Try again.');
      assert.doesNotMatch(JSON.stringify(gen), /10\.0\.3\.9|ECONNREFUSED/);
      assert.deepEqual([gen.charged_credits, gen.refunded_credits], [0, gen.reserved_credits]);
      await assertMoneyInvariants(org.id);
    } finally {
      await worker.stop();
    }
  });
});
