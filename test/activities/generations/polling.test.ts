import assert from 'node:assert/strict';
import { nextPollInMs } from '../../../activities/generations/polling';

describe('nextPollInMs', () => {
  it("follows the provider's hint, or a second, while the job is young", () => {
    assert.equal(nextPollInMs(undefined, 0), 1_000);
    assert.equal(nextPollInMs(250, 500), 250);
    assert.equal(nextPollInMs(3_000, 1_000), 3_000);
  });

  it('stretches to a quarter of the job’s age as it runs, and never beyond 5 s', () => {
    assert.equal(nextPollInMs(1_000, 8_000), 2_000);
    assert.equal(nextPollInMs(1_000, 16_000), 4_000);
    assert.equal(nextPollInMs(1_000, 10 * 60_000), 5_000);
    assert.equal(nextPollInMs(60_000, 0), 5_000);
  });

  it('never polls in a busy loop, whatever the hint', () => {
    assert.equal(nextPollInMs(0, 0), 10);
  });
});
