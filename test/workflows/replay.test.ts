import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { Worker, type WorkflowBundle } from '@temporalio/worker';
import { historyFromJsonText } from '../fixtures/histories/history-json';
import { FROZEN_HISTORY_NAMES, HISTORIES_DIR, HISTORY_SHAPE_NAMES } from '../fixtures/histories/shapes';
import { stack } from '../helpers/stack';
import { tracedWorkflowBundle } from '../helpers/traced-services';

// Every recorded history (test/fixtures/histories/, `npm run histories:record`) replayed against
// today's workflow code: a change that a running workflow could not replay fails here, before it
// reaches a worker with workflows in flight. See docs/testing.md, "Changing workflow code".

async function recordedHistories(): Promise<{ workflowId: string; history: ReturnType<typeof historyFromJsonText> }[]> {
  const files = (await readdir(HISTORIES_DIR)).filter((f) => f.endsWith('.json')).sort();
  return Promise.all(
    files.map(async (file) => ({
      workflowId: path.basename(file, '.json'),
      history: historyFromJsonText(await readFile(path.join(HISTORIES_DIR, file), 'utf8')),
    })),
  );
}

describe('recorded workflow histories', function () {
  this.timeout(60_000);

  it('cover every workflow shape, one file each, and nothing else', async () => {
    const recorded = (await recordedHistories()).map((h) => h.workflowId).sort();
    assert.deepEqual(
      recorded,
      [...HISTORY_SHAPE_NAMES, ...FROZEN_HISTORY_NAMES].sort(),
      'record a missing shape with `npm run histories:record -- <shape>`; delete the file of a shape no longer in shapes.ts',
    );
  });

  it('replay against the current workflow code without a determinism error', async () => {
    await assertReplays(stack().workflowBundle);
  });

  // A traced worker bundles the OpenTelemetry workflow interceptors (worker/bundle-workflows.ts); a
  // workflow started untraced may be replayed by a traced worker, and the other way round.
  it('replay with the tracing interceptors in the bundle without a determinism error', async () => {
    await assertReplays(await tracedWorkflowBundle());
  });
});

async function assertReplays(workflowBundle: WorkflowBundle): Promise<void> {
  const histories = await recordedHistories();
  const failures: string[] = [];
  let replayed = 0;
  for await (const result of Worker.runReplayHistories({ workflowBundle }, histories)) {
    replayed += 1;
    if (result.error) failures.push(`${result.workflowId}: ${result.error.name}: ${result.error.message}`);
  }
  assert.equal(replayed, histories.length, 'every history was replayed');
  assert.ok(
    failures.length === 0,
    `workflow code no longer replays these histories; put the change behind patched() (docs/testing.md, "Changing workflow code"):\n${failures.join('\n')}`,
  );
}
