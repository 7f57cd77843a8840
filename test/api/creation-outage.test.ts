import assert from 'node:assert/strict';
import { Client, Connection } from '@temporalio/client';
import { call, createOrganization, waitForGeneration } from '../helpers/http';
import { assertLedgerBalanced } from '../helpers/ledger';
import { startExtraApi, stack } from '../helpers/stack';
import { startTcpProxy } from '../helpers/tcp-proxy';
import { providerDoubles } from '../helpers/provider-doubles';
import { silentLogger } from '../../lib/logger';
import { startSyncWorker } from '../../worker/sync-worker';

// A creation request while Temporal cannot be reached: a 503 that names the cause within seconds,
// nothing charged, and the same request retried with its key once Temporal is back goes through.

describe('creating a generation while Temporal is unreachable', function () {
  this.timeout(60_000);

  for (const outage of ['frozen', 'refusing'] as const) {
    it(`answers 503 service_unavailable within about 5 s (Temporal ${outage}), charges nothing, and recovers`, async () => {
      const [host, port] = stack().config.temporalAddress!.split(':');
      const proxy = await startTcpProxy({ host: host!, port: Number(port) });
      const connection = await Connection.connect({ address: proxy.address });
      // With API_EMBEDDED_WORKER, the API's own worker and the client it starts sync jobs on reach Temporal through the proxy too.
      const sync = stack().apiDeps.syncStarts
        ? await startSyncWorker(stack().config, silentLogger, {
            address: proxy.address,
            databaseUrl: stack().config.databaseUrl!,
            workflowBundle: stack().workflowBundle,
            providerAdapters: providerDoubles,
          })
        : undefined;
      const api = await startExtraApi({ temporal: new Client({ connection }), ...(sync && { syncStarts: sync }) });
      try {
        const org = await createOrganization({ credits: 1000 });
        const body = { model: 'flux-schnell', prompt: `outage ${outage}` };
        const headers = { 'Idempotency-Key': `outage-${outage}` };
        if (outage === 'frozen') proxy.freeze();
        else await proxy.refuse();

        const started = Date.now();
        const refused = await call('POST', '/v1/images', { key: org.liveKey, body, headers, baseUrl: api.url });
        const tookMs = Date.now() - started;
        assert.equal(refused.status, 503, JSON.stringify(refused.body));
        assert.equal(refused.body.error.code, 'service_unavailable');
        assert.match(refused.body.error.message, /Temporal/);
        assert.ok(refused.headers.get('retry-after'), 'Retry-After is set');
        assert.ok(tookMs < 8_000, `answered in ${tookMs} ms`);
        assert.deepEqual(await assertLedgerBalanced(org.id), { availableCredits: 1000, reservedCredits: 0 });

        await proxy.restore();
        const retried = await call('POST', '/v1/images', { key: org.liveKey, body, headers, baseUrl: api.url });
        assert.equal(retried.status, 200, JSON.stringify(retried.body));
        assert.equal((await waitForGeneration(retried.body.id, org.liveKey)).status, 'succeeded');
        const balance = await assertLedgerBalanced(org.id);
        assert.equal(balance.availableCredits, 1000 - retried.body.charged_credits, 'charged once');
      } finally {
        // The connection stays open: the abandoned call's retry timer may still fire on it, and
        // the run ends the process anyway.
        await api.close();
        await sync?.stop();
        await proxy.close();
      }
    });
  }
});
