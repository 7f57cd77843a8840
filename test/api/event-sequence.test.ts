import assert from 'node:assert/strict';
import { call, createOrganization, waitForGeneration } from '../helpers/http';
import { assertLedgerBalanced } from '../helpers/ledger';
import { waitForComparison } from '../helpers/comparisons';
import { stack } from '../helpers/stack';

// The ordering aid (issue 41 item 7): every generation and comparison event carries `data.sequence`,
// the count of its resource's status changes when the event was written, so of two events about one
// resource a receiver keeps the higher and drops a stale one that arrives late.

async function eventsOf(key: string, subjectField: 'generation_id' | 'comparison_id', id: string) {
  const res = await call('GET', '/v1/events?limit=100', { key });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return (res.body.data as { type: string; data: Record<string, unknown> }[]).filter((e) => e.data[subjectField] === id);
}

const statusSequence = async (table: 'generations' | 'comparisons', id: string): Promise<number> =>
  (await stack().knex(table).where({ id }).first('status_sequence')).status_sequence;

describe('event sequence', function () {
  this.timeout(90_000);

  it("grows with a generation's status changes: its completed event has a higher sequence than any status it passed", async () => {
    const org = await createOrganization();
    const accepted = await call('POST', '/v1/videos', { key: org.liveKey, body: { model: 'hailuo-02', prompt: 'a slow wave #slow:1500' } });
    assert.equal(accepted.status, 202, JSON.stringify(accepted.body));
    await waitForGeneration(accepted.body.id, org.liveKey, ['running']);
    const whileRunning = await statusSequence('generations', accepted.body.id);
    assert.equal(whileRunning, 2, 'queued (1), then running (2)');
    await waitForGeneration(accepted.body.id, org.liveKey);

    const [completed] = await eventsOf(org.liveKey, 'generation_id', accepted.body.id);
    assert.equal(completed!.type, 'generation.completed');
    assert.equal(completed!.data.sequence, 3, 'succeeded is the third status');
    assert.ok((completed!.data.sequence as number) > whileRunning);

    const failing = await call('POST', '/v1/images', { key: org.liveKey, body: { model: 'flux-schnell', prompt: 'no luck #fail' } });
    const [failed] = await eventsOf(org.liveKey, 'generation_id', failing.body.id);
    assert.equal(failed!.type, 'generation.failed');
    assert.equal(failed!.data.sequence, await statusSequence('generations', failing.body.id));
    assert.ok((failed!.data.sequence as number) >= 2, 'written after at least one status change');
    await assertLedgerBalanced(org.id);
  });

  it('stamps comparison.completed with the comparison’s own sequence and each child’s event with the child’s', async () => {
    const org = await createOrganization({ plan: 'pro' });
    const accepted = await call('POST', '/v1/comparisons', { key: org.liveKey, body: { prompt: 'two views', models: ['flux-schnell', 'flux-dev'] } });
    assert.equal(accepted.status, 202, JSON.stringify(accepted.body));
    const done = await waitForComparison(accepted.body.id, org.liveKey);
    const [verdict] = await eventsOf(org.liveKey, 'comparison_id', accepted.body.id);
    assert.equal(verdict!.type, 'comparison.completed');
    assert.equal(verdict!.data.sequence, 2, 'open (1), then its verdict (2)');
    for (const child of done.generations as { id: string }[]) {
      const [event] = await eventsOf(org.liveKey, 'generation_id', child.id);
      assert.equal(event!.data.sequence, await statusSequence('generations', child.id));
      assert.ok((event!.data.sequence as number) >= 2);
    }
    await assertLedgerBalanced(org.id);
  });
});
