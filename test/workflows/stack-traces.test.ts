import assert from 'node:assert/strict';
import { call, createOrganization, waitFor, waitForGeneration } from '../helpers/http';
import { assertMoneyInvariants } from '../helpers/money-invariants';
import { stack } from '../helpers/stack';

// workflows/sandbox-stack-traces.ts keeps three frames a stack trace in the sandbox, for the SDK's
// per-promise stack traces' sake; the stack-trace query (the Temporal UI's "Stack Trace" tab) must
// still say where a workflow waits.
describe('stack traces in the workflow sandbox', () => {
  it('the stack-trace query names where a running generation waits, three frames a stack', async () => {
    const org = await createOrganization({ credits: 1000 });
    const res = await call('POST', '/v1/videos', { key: org.liveKey, body: { model: 'hailuo-02', prompt: 'a lighthouse #slow:20000', duration_s: 6 } });
    assert.equal(res.status, 202);
    const id: string = res.body.id;
    await waitFor(async () => (await stack().repos.generations.findById(id))?.status === 'running', 20_000, 'the provider to start');

    const handle = stack().temporal.workflow.getHandle(id);
    const trace: string = await handle.query('__stack_trace');
    const stacks = trace.split(/\n\s*\n/).filter((s) => s.trim() !== '');
    assert.ok(stacks.length > 0, 'the query answered with a pending promise');
    for (const s of stacks) assert.ok(s.trim().split('\n').length <= 3, `at most three frames:\n${s}`);
    assert.match(trace, /at runAsync \(.*workflows\/generation-provider\.ts:\d+/, 'the wait on the provider, in our code');
    await handle.cancel();
    await waitForGeneration(id, org.liveKey, ['canceled'], 20_000);
    await assertMoneyInvariants(org.id);
  });
});
