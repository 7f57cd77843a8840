import assert from 'node:assert/strict';
import { longestRequestMs } from '../../api/admission/request-budget';
import { canonicalJson, sha256Hex } from '../../lib/canonical-json';
import { newId } from '../../lib/ids';
import { createLogger } from '../../lib/logger';
import { call, createOrganization, waitFor } from '../helpers/http';
import { assertLedgerBalanced } from '../helpers/ledger';
import { startExtraApi, stack } from '../helpers/stack';

// A claim belongs to the request that made it (decisions §9). A request that outlives its lock
// may have its key taken over by a retry; when it finally answers, it must leave the retry's claim
// alone, and say so in its log.

const withKey = (key: string) => ({ 'Idempotency-Key': key });

describe('idempotency claims belong to their request', () => {
  it('locks a claim for as long as the longest request the configuration allows', async () => {
    const org = await createOrganization();
    const key = newId('req');
    const pending = call('POST', '/v1/images', { key: org.liveKey, body: { model: 'flux-schnell', prompt: 'held #slow:1000' }, headers: withKey(key) });
    const row = await waitFor(() => stack().knex('idempotency_keys').where({ organization_id: org.id, key }).first(), 10_000, 'the claim');
    assert.equal(row.locked_until.getTime() - row.created_at.getTime(), longestRequestMs(stack().apiDeps));
    assert.equal((await pending).status, 200);
  });

  it("answers a request whose key a retry took over, but leaves the retry's claim alone", async function () {
    this.timeout(30_000);
    const org = await createOrganization();
    const key = newId('req');
    const body = { model: 'flux-schnell', prompt: 'outlived its lock #slow:3000' };
    const lines: string[] = [];
    // An API whose clock is an hour behind: its claims are already past their lock when made.
    const behind = await startExtraApi({
      clock: () => new Date(Date.now() - 3600_000),
      logger: createLogger({ level: 'debug', write: (line) => lines.push(line) }),
    });
    const late = call('POST', '/v1/images', { key: org.liveKey, body, headers: withKey(key), baseUrl: behind.url });
    await waitFor(() => stack().knex('idempotency_keys').where({ organization_id: org.id, key }).first(), 10_000, 'the first claim');

    // The retry that takes the key over while the first request is still running its 3 s job.
    const retry = await stack().repos.idempotencyKeys.claim({
      organizationId: org.id,
      environment: 'live',
      key,
      endpoint: 'POST /v1/images',
      requestHash: sha256Hex(canonicalJson(body)),
      newResourceId: newId('gen'),
      now: new Date(),
      expiredBefore: new Date(Date.now() - 24 * 3600_000),
      lockedUntil: new Date(Date.now() + 60_000),
    });
    assert.equal(retry.kind, 'claimed');
    assert.ok(retry.kind === 'claimed' && retry.takenOver);

    const first = await late;
    assert.equal(first.status, 200);
    assert.equal(first.body.id, retry.resourceId);
    const row = await stack().knex('idempotency_keys').where({ organization_id: org.id, key }).first();
    assert.equal(row.state, 'in_progress');
    assert.equal(row.owner_token, retry.held.ownerToken);
    assert.equal(row.response_body, null);
    const lost = lines.map((l) => JSON.parse(l)).find((l) => l.msg.startsWith('idempotency claim lost'));
    assert.equal(lost?.level, 'warn');
    assert.equal(lost.request_id, first.headers.get('x-request-id'));
    assert.equal(lost.action, 'complete');

    const meanwhile = await call('POST', '/v1/images', { key: org.liveKey, body, headers: withKey(key) });
    assert.equal(meanwhile.status, 409);
    assert.equal(meanwhile.body.error.code, 'idempotency_in_progress');

    assert.equal(await stack().repos.idempotencyKeys.complete(retry.held, { status: first.status, body: first.body }), true);
    const replay = await call('POST', '/v1/images', { key: org.liveKey, body, headers: withKey(key) });
    assert.equal(replay.headers.get('idempotent-replayed'), 'true');
    assert.deepEqual(replay.body, first.body);
    assert.equal(
      await stack()
        .knex('generations')
        .where({ organization_id: org.id })
        .count('* as n')
        .first()
        .then((r) => Number(r?.n)),
      1,
    );
    await assertLedgerBalanced(org.id);
  });
});
