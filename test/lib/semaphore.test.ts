import assert from 'node:assert/strict';
import { createSemaphore } from '../../lib/semaphore';

/** A promise with its resolve at hand. */
function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe('createSemaphore', () => {
  it('runs at most the limit at once and the rest in order of arrival', async () => {
    const run = createSemaphore(2);
    const gates = [deferred(), deferred(), deferred(), deferred()];
    const started: number[] = [];
    let running = 0;
    let highest = 0;
    const all = gates.map((gate, i) =>
      run(async () => {
        started.push(i);
        highest = Math.max(highest, ++running);
        await gate.promise;
        running--;
        return i;
      }),
    );
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(started, [0, 1]);
    gates[1]!.resolve();
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(started, [0, 1, 2]);
    for (const gate of gates) gate.resolve();
    assert.deepEqual(await Promise.all(all), [0, 1, 2, 3]);
    assert.deepEqual(started, [0, 1, 2, 3]);
    assert.equal(highest, 2);
  });

  it('frees the slot when the function throws', async () => {
    const run = createSemaphore(1);
    await assert.rejects(
      run(() => Promise.reject(new Error('boom'))),
      /boom/,
    );
    assert.equal(await run(async () => 'next'), 'next');
  });
});
