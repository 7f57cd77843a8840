import { condition, defineUpdate, setHandler } from '@temporalio/workflow';

// The benchmarks' floors: the least a workflow can cost, to measure the generation workflow
// against (bench:images, bench:async, bench:webhooks). Registered only by bench and test workers
// (bench/workflows/index.ts), never by the production worker (workflows/index.ts).

/** The floor's one update, in the place of a generation's `admit`: answered at once. */
export const readyUpdate = defineUpdate<boolean>('ready');

/** The benchmark's floor: answers its update and returns, with no activity at all. */
export async function floorWorkflow(): Promise<string> {
  let answered = false;
  setHandler(readyUpdate, () => {
    answered = true;
    return true;
  });
  await condition(() => answered);
  return 'succeeded';
}

/** The benchmark's barest floor: started, and returns at once (one workflow task). */
export async function bareWorkflow(): Promise<string> {
  return 'succeeded';
}
