import assert from 'node:assert/strict';
import * as benchWorkflows from '../../bench/workflows';
import * as productionWorkflows from '../../workflows';
import { WORKFLOW_CODE } from '../../worker/bundle-workflows';

// The benchmarks' floor workflows are for bench and test workers only: the production worker
// bundles workflows/index.ts (WORKFLOW_CODE), which must not register them.

describe('the workflows the production worker registers', () => {
  it('are those of workflows/index.ts, which has no benchmark floor', () => {
    assert.equal(WORKFLOW_CODE.workflowsPath, require.resolve('../../workflows'));
    const registered = Object.keys(productionWorkflows);
    for (const floor of ['floorWorkflow', 'bareWorkflow']) assert.ok(!registered.includes(floor), `${floor} is registered by the production worker`);
    assert.ok(registered.includes('generationWorkflow'));
  });

  it('are all registered by bench and test workers too, with the floors', () => {
    assert.deepEqual(Object.keys(benchWorkflows).sort(), [...Object.keys(productionWorkflows), 'bareWorkflow', 'floorWorkflow'].sort());
  });
});
