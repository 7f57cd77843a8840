import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import type { WebhookDeps } from '../../config/webhook-settings';
import { createSecretBox, generateSecretBoxKey, type SecretBox } from '../../lib/secret-box';
import { call, createOrganization, waitFor } from '../helpers/http';
import { startExtraApi, stack } from '../helpers/stack';
import { startPostgresProxy } from '../helpers/tcp-proxy';
import { startTestWorker } from '../helpers/test-worker';
import { startHttpsServer } from '../helpers/tls';

// Every delivery reaches `succeeded` or `exhausted` (issue 33): whatever the database, the secrets
// key or the receiver's answer does, a delivery is never left pending with nothing to end it, and
// nothing the receiver answers makes the service POST again.

interface Attempt {
  number: number;
  status_code: number | null;
  response_body: string | null;
  error: string | null;
}

/** An https receiver; `answer(n, res)` answers the n-th request (1-based); `deliveries` lists each request's delivery id. */
async function startReceiver(answer: (n: number, res: ServerResponse) => void) {
  const deliveries: string[] = [];
  const server = await startHttpsServer(stack().receiverCertificate, (req, res) => {
    req.resume().on('end', () => {
      deliveries.push(String(req.headers['x-service-delivery']));
      answer(deliveries.length, res);
    });
  });
  return { url: `https://127.0.0.1:${server.port}/hook`, deliveries, close: server.close };
}

async function getDelivery(key: string, id: string) {
  return (await call('GET', `/v1/webhook-deliveries/${id}`, { key })).body as { id: string; status: string; attempt_count: number; attempts: Attempt[] };
}

async function deliveryIn(key: string, id: string, status: string, limitMs = 30_000) {
  return waitFor(
    async () => {
      const delivery = await getDelivery(key, id);
      return delivery.status === status ? delivery : undefined;
    },
    limitMs,
    `delivery ${id} to be ${status}`,
  );
}

/** A subscription with one delivery the stack's own worker has delivered (a replay's source). */
async function deliveredOnce(url: string) {
  const org = await createOrganization();
  const hook = await call('POST', '/v1/webhooks', { key: org.liveKey, body: { url, events: ['generation.completed'] } });
  assert.equal(hook.status, 201, JSON.stringify(hook.body));
  await call('POST', '/v1/images', { key: org.liveKey, body: { model: 'flux-schnell', prompt: 'the first' } });
  const first = await waitFor(
    async () => {
      const res = await call('GET', `/v1/webhooks/${hook.body.id}/deliveries`, { key: org.liveKey });
      return res.body.data?.find((d: { status: string }) => d.status === 'succeeded');
    },
    30_000,
    'the first delivery',
  );
  return { key: org.liveKey, first: first as { id: string } };
}

/**
 * An API whose deliveries go to a queue of the test's own, served by an in-process worker with the
 * given secrets box and database (a proxy, to cut it off), with `scheduleMs` between attempts.
 */
async function onOwnQueue<T>(opts: { scheduleMs: number[]; secretBox?: SecretBox; databaseUrl?: string }, fn: (apiUrl: string) => Promise<T>): Promise<T> {
  const queue = `webhook-endings-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
  const base = stack().apiDeps.webhooks!;
  const webhooks: WebhookDeps = { ...base, relay: { ...base.relay, taskQueue: queue, scheduleMs: opts.scheduleMs } };
  const api = await startExtraApi({ webhooks });
  const worker = await startTestWorker(queue, {
    webhooks: { ...webhooks, ...(opts.secretBox && { secretBox: opts.secretBox }) },
    ...(opts.databaseUrl && { databaseUrl: opts.databaseUrl }),
  });
  try {
    return await fn(api.url);
  } finally {
    await worker.stop();
    await api.close();
  }
}

async function replay(key: string, deliveryId: string, apiUrl: string): Promise<string> {
  const res = await call('POST', `/v1/webhook-deliveries/${deliveryId}/replay`, { key, baseUrl: apiUrl });
  assert.equal(res.status, 202, JSON.stringify(res.body));
  return res.body.id as string;
}

describe('a webhook delivery always ends', function () {
  this.timeout(120_000);

  it('stores a binary answer (NUL, bytes that are not UTF-8) as an escaped preview, and the answer never causes a resend', async () => {
    const receiver = await startReceiver((n, res) => {
      if (n === 2) res.writeHead(500, { 'Content-Type': 'application/octet-stream' }).end(Buffer.from([0x3c, 0x00, 0xff, 0x41]));
      else res.writeHead(200).end('ok');
    });
    try {
      const { key, first } = await deliveredOnce(receiver.url);
      const replayId = await replay(key, first.id, stack().apiUrl);
      const done = await deliveryIn(key, replayId, 'succeeded');
      assert.deepEqual(
        done.attempts.map((a) => [a.number, a.status_code, a.response_body]),
        [
          [1, 500, '<\\x00\\xffA'],
          [2, 200, 'ok'],
        ],
      );
      assert.equal(receiver.deliveries.filter((d) => d === replayId).length, 2, 'one POST per attempt');
    } finally {
      await receiver.close();
    }
  });

  it('never POSTs an attempt again when recording it fails after it was sent: the record waits for the database', async () => {
    const { proxy, databaseUrl } = await startPostgresProxy(stack().config.databaseUrl!);
    let restored: Promise<void> | undefined;
    // The database goes away the moment the receiver has the POST, before it answers.
    const receiver = await startReceiver((n, res) => {
      if (n === 1) return void res.writeHead(200).end();
      void proxy.refuse().then(() => {
        res.writeHead(200).end('got it');
        restored = new Promise((resolve) => setTimeout(resolve, 3_000)).then(() => proxy.restore());
      });
    });
    try {
      const { key, first } = await deliveredOnce(receiver.url);
      await onOwnQueue({ scheduleMs: [0, 60_000], databaseUrl }, async (apiUrl) => {
        const replayId = await replay(key, first.id, apiUrl);
        const done = await deliveryIn(key, replayId, 'succeeded', 60_000);
        assert.ok(restored, 'the database was cut off while the attempt was in flight');
        assert.deepEqual(
          done.attempts.map((a) => [a.number, a.status_code, a.response_body]),
          [[1, 200, 'got it']],
        );
        assert.equal(receiver.deliveries.filter((d) => d === replayId).length, 1, 'sent once');
      });
    } finally {
      await restored;
      await proxy.close();
      await receiver.close();
    }
  });

  it('waits out a database outage before an attempt without spending it: the same attempt is sent once the database is back', async () => {
    const { proxy, databaseUrl } = await startPostgresProxy(stack().config.databaseUrl!);
    const receiver = await startReceiver((_n, res) => res.writeHead(200).end());
    try {
      const { key, first } = await deliveredOnce(receiver.url);
      await onOwnQueue({ scheduleMs: [0, 60_000], databaseUrl }, async (apiUrl) => {
        await proxy.refuse();
        const replayId = await replay(key, first.id, apiUrl);
        // Longer than a few of the worker's retries (1 s, 2 s, 4 s apart).
        await new Promise((resolve) => setTimeout(resolve, 5_000));
        assert.equal((await getDelivery(key, replayId)).status, 'pending');
        await proxy.restore();
        const done = await deliveryIn(key, replayId, 'succeeded', 60_000);
        assert.deepEqual(
          done.attempts.map((a) => [a.number, a.status_code]),
          [[1, 200]],
        );
        assert.equal(receiver.deliveries.filter((d) => d === replayId).length, 1);
      });
    } finally {
      await proxy.close();
      await receiver.close();
    }
  });

  it('ends exhausted, having sent nothing, when its secret cannot be opened until the schedule has run out', async () => {
    const receiver = await startReceiver((_n, res) => res.writeHead(200).end());
    try {
      const { key, first } = await deliveredOnce(receiver.url);
      // A worker whose WEBHOOK_SECRETS_KEY is not the one the secret was sealed with.
      const wrongKey = createSecretBox(generateSecretBoxKey());
      await onOwnQueue({ scheduleMs: [0, 1_000], secretBox: wrongKey }, async (apiUrl) => {
        const replayId = await replay(key, first.id, apiUrl);
        const ended = await deliveryIn(key, replayId, 'exhausted', 90_000);
        assert.deepEqual(ended.attempts, []);
        assert.deepEqual(
          receiver.deliveries.filter((d) => d === replayId),
          [],
        );
        // The workflow's `finally` ends the delivery, then the workflow fails: wait for it to close.
        const handle = stack().temporal.workflow.getHandle(replayId);
        await assert.rejects(handle.result());
        assert.equal((await handle.describe()).status.name, 'FAILED', 'the failure shows in Temporal; the delivery is ended all the same');
      });
    } finally {
      await receiver.close();
    }
  });

  it('sends the attempt once a secret that could not be opened opens again, within the schedule, spending no attempt', async () => {
    const receiver = await startReceiver((_n, res) => res.writeHead(200).end());
    let tries = 0;
    let openable = false;
    const real = stack().apiDeps.webhooks!.secretBox;
    // The key the secret was sealed with is missing from the worker, then put back.
    const box: SecretBox = {
      currentPrefix: real.currentPrefix,
      seal: (plaintext, boundTo) => real.seal(plaintext, boundTo),
      open: (sealed, boundTo) => {
        tries += 1;
        if (!openable) throw new Error('Unsupported state or unable to authenticate data');
        return real.open(sealed, boundTo);
      },
    };
    try {
      const { key, first } = await deliveredOnce(receiver.url);
      await onOwnQueue({ scheduleMs: [0, 60_000], secretBox: box }, async (apiUrl) => {
        const replayId = await replay(key, first.id, apiUrl);
        await waitFor(async () => tries >= 3, 30_000, 'three tries to open the secret');
        assert.equal((await getDelivery(key, replayId)).attempt_count, 0);
        openable = true;
        const done = await deliveryIn(key, replayId, 'succeeded', 60_000);
        assert.deepEqual(
          done.attempts.map((a) => [a.number, a.status_code]),
          [[1, 200]],
        );
      });
    } finally {
      await receiver.close();
    }
  });

  it("is restarted by the relay's sweep when its workflow closed before it ended, at its next attempt", async () => {
    const receiver = await startReceiver((n, res) => res.writeHead(n === 2 ? 500 : 200).end());
    try {
      const { key, first } = await deliveredOnce(receiver.url);
      await onOwnQueue({ scheduleMs: [0, 600_000] }, async (apiUrl) => {
        const replayId = await replay(key, first.id, apiUrl);
        await deliveryIn(key, replayId, 'failed');
        const handle = stack().temporal.workflow.getHandle(replayId);
        const { runId } = await handle.describe();
        // The Schedule's run, on demand.
        const sweep = () => stack().temporal.workflow.execute('webhookRelayWorkflow', { taskQueue: stack().config.taskQueue, workflowId: `relay-endings-${Date.now()}`, args: [] });
        // Attempt 2 overdue, as if the 10 min gap had passed: a running workflow is left alone.
        await stack()
          .knex('webhook_deliveries')
          .where({ id: replayId })
          .update({ next_attempt_at: stack().knex.raw("now() - interval '3 minutes'") });
        await sweep();
        const untouched = await handle.describe();
        assert.deepEqual([untouched.runId, untouched.status.name], [runId, 'RUNNING']);
        // An operator terminates it while it waits for attempt 2: the sweep restarts it.
        await handle.terminate('terminated by the test');
        await waitFor(
          async () => {
            // Repeated, should the minute's run get there first.
            await sweep();
            return (await getDelivery(key, replayId)).status === 'succeeded';
          },
          60_000,
          'the restarted delivery to succeed',
        );
        const done = await getDelivery(key, replayId);
        assert.deepEqual(
          done.attempts.map((a) => [a.number, a.status_code]),
          [
            [1, 500],
            [2, 200],
          ],
        );
        assert.equal(receiver.deliveries.filter((d) => d === replayId).length, 2);
        assert.notEqual((await handle.describe()).runId, runId, 'a new run of the same workflow id');
      });
    } finally {
      await receiver.close();
    }
  });
});
