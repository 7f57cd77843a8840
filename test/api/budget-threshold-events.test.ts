import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import type { BudgetThresholdData } from '../../domain/webhook-events';
import { call, createOrganization, waitFor, type TestOrganization } from '../helpers/http';
import { assertMoneyInvariants } from '../helpers/money-invariants';
import { stack } from '../helpers/stack';
import { startHttpsServer } from '../helpers/tls';

// The 100 % budget event (decisions §4, issue 33): once per key and month, at the first moment the
// key's spend reaches its budget (`reached`) or the budget first refuses a request
// (`request_refused`), whichever comes first; 50 and 80 are `crossed`. The hard cap holds under
// concurrency either way.

const IMAGE = { model: 'flux-schnell', prompt: 'a red kite over the dunes' };

type ThresholdData = BudgetThresholdData;

async function imageEstimate(): Promise<number> {
  const org = await createOrganization({ plan: 'pro' });
  const res = await call('POST', '/v1/images', { key: org.liveKey, body: IMAGE });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.reserved_credits as number;
}

async function budgetedKey(org: TestOrganization, budgetCredits: number): Promise<{ id: string; secret: string }> {
  assert.equal(budgetCredits % 10, 0, 'a budget is whole cents');
  const res = await call('POST', '/v1/api-keys', { key: org.liveKey, body: { name: 'budgeted', monthly_budget_usd: budgetCredits / 1000 } });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return { id: res.body.id, secret: res.body.secret };
}

async function thresholdEvents(keyId: string): Promise<ThresholdData[]> {
  const rows = await stack().knex('events').where({ type: 'usage.budget_threshold' }).whereLike('subject_id', `${keyId}:%`);
  return rows.map((r: { data: ThresholdData }) => r.data).sort((a: ThresholdData, b: ThresholdData) => a.threshold - b.threshold);
}

/** 20 requests at once; answers 200 or 402 budget_exceeded only. Returns how many were admitted. */
async function race(secret: string): Promise<number> {
  const answers = await Promise.all(Array.from({ length: 20 }, () => call('POST', '/v1/images', { key: secret, body: IMAGE })));
  assert.ok(
    answers.every((a) => a.status === 200 || a.body.error?.code === 'budget_exceeded'),
    JSON.stringify(answers.map((a) => a.body.error?.code ?? a.status)),
  );
  return answers.filter((a) => a.status === 200).length;
}

const thisMonth = () => new Date().toISOString().slice(0, 7);

/** A budget in whole cents, over ten requests' worth, that no number of requests spends exactly. */
function unreachableBudget(estimate: number): number {
  let budget = Math.ceil((10 * estimate + 1) / 10) * 10;
  while (budget % estimate === 0) budget += 10;
  return budget;
}

describe('the 100 % budget event', function () {
  this.timeout(120_000);
  let estimate: number;
  before(async () => {
    estimate = await imageEstimate();
  });

  it('says `reached` when concurrent requests spend exactly the budget, once, and the refusals after it add none', async () => {
    const org = await createOrganization({ plan: 'pro', credits: 100_000 });
    const budget = 10 * estimate;
    const key = await budgetedKey(org, budget);
    assert.equal(await race(key.secret), 10);
    const events = await thresholdEvents(key.id);
    assert.deepEqual(
      events.map((e) => [e.threshold, e.reason]),
      [
        [50, 'crossed'],
        [80, 'crossed'],
        [100, 'reached'],
      ],
    );
    assert.deepEqual(events[2], { threshold: 100, reason: 'reached', api_key_id: key.id, budget_usd: budget / 1000, spent_usd: budget / 1000, period: thisMonth() });
    assert.equal((await call('POST', '/v1/images', { key: key.secret, body: IMAGE })).status, 402);
    assert.equal((await thresholdEvents(key.id)).length, 3);
    await assertMoneyInvariants(org.id);
  });

  it('says `request_refused` when the budget refuses a concurrent request before spend reaches it, once, and spend never passes it', async () => {
    const org = await createOrganization({ plan: 'pro', credits: 100_000 });
    const budget = unreachableBudget(estimate);
    const fits = Math.floor(budget / estimate);
    const key = await budgetedKey(org, budget);
    assert.equal(await race(key.secret), fits);
    const spent = (await call('GET', '/v1/api-keys?limit=100', { key: org.liveKey })).body.data.find((k: { id: string }) => k.id === key.id).spent_usd_this_month;
    assert.equal(spent, (fits * estimate) / 1000);
    const events = await thresholdEvents(key.id);
    assert.deepEqual(
      events.map((e) => [e.threshold, e.reason]),
      [
        [50, 'crossed'],
        [80, 'crossed'],
        [100, 'request_refused'],
      ],
    );
    assert.deepEqual(events[2], { threshold: 100, reason: 'request_refused', api_key_id: key.id, budget_usd: budget / 1000, spent_usd: spent, period: thisMonth() });
    assert.equal((await call('POST', '/v1/images', { key: key.secret, body: IMAGE })).status, 402);
    assert.equal((await thresholdEvents(key.id)).length, 3, 'later refusals emit nothing more');
    await assertMoneyInvariants(org.id);
  });

  it('reaches a subscribed webhook receiver with the documented data', async () => {
    const org = await createOrganization({ plan: 'pro', credits: 100_000 });
    const received: { headers: IncomingMessage['headers']; body: string }[] = [];
    const server = await startHttpsServer(stack().receiverCertificate, (req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        received.push({ headers: req.headers, body });
        res.writeHead(200).end();
      });
    });
    try {
      const hook = await call('POST', '/v1/webhooks', { key: org.liveKey, body: { url: `https://127.0.0.1:${server.port}/hook`, events: ['usage.budget_threshold'] } });
      assert.equal(hook.status, 201, JSON.stringify(hook.body));
      // Requests one after another until the budget refuses one, before spend reaches it.
      const budget = unreachableBudget(estimate);
      const key = await budgetedKey(org, budget);
      const fits = Math.floor(budget / estimate);
      for (let i = 0; i < fits; i++) assert.equal((await call('POST', '/v1/images', { key: key.secret, body: IMAGE })).status, 200);
      const refused = await call('POST', '/v1/images', { key: key.secret, body: IMAGE });
      assert.equal(refused.body.error?.code, 'budget_exceeded', JSON.stringify(refused.body));

      await waitFor(async () => received.length >= 3, 20_000, 'three deliveries');
      const envelopes = received.map((r) => JSON.parse(r.body)).sort((a, b) => a.data.threshold - b.data.threshold);
      assert.ok(received.every((r) => r.headers['x-service-event'] === 'usage.budget_threshold'));
      /** Spend after the request that crossed `threshold` %: spend moves one estimate at a time. */
      const crossedAt = (threshold: number) => (Math.ceil((threshold * budget) / 100 / estimate) * estimate) / 1000;
      const common = { api_key_id: key.id, budget_usd: budget / 1000, period: thisMonth() };
      assert.deepEqual(
        envelopes.map((e) => e.data),
        [
          { threshold: 50, reason: 'crossed', ...common, spent_usd: crossedAt(50) },
          { threshold: 80, reason: 'crossed', ...common, spent_usd: crossedAt(80) },
          { threshold: 100, reason: 'request_refused', ...common, spent_usd: (fits * estimate) / 1000 },
        ],
      );
      assert.ok(envelopes.every((e) => e.type === 'usage.budget_threshold' && /^evt_/.test(e.id)));
    } finally {
      await server.close();
    }
    await assertMoneyInvariants(org.id);
  });
});
