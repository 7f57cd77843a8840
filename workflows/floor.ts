import { condition, setHandler } from '@temporalio/workflow';
import { readyUpdate } from './definitions';

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
