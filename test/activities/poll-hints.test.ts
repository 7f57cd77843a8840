import assert from 'node:assert/strict';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { createPollHintHub } from '../../activities/poll-hints';

// The poll hints' hub on its own: which waits a provider's callback wakes. Every wait here is a
// minute long, so anything that ends one sooner is the hint (or the abort) under test.

const MINUTE = 60_000;

describe('poll hints', () => {
  it("wake the wait of their job's poll, and no other", async () => {
    const hub = createPollHintHub();
    const mine = hub.watch('gen_a');
    const other = hub.watch('gen_b');
    let otherWoke = false;
    const otherWait = other.sleep(MINUTE).then(() => (otherWoke = true));
    const myWait = mine.sleep(MINUTE);
    hub.notify('gen_a');
    await myWait;
    await nextTurn();
    assert.equal(otherWoke, false);
    hub.notify('gen_b');
    await otherWait;
    mine.close();
    other.close();
  });

  it('that arrive while the job is being polled end the next wait at once, and only that one', async () => {
    const hub = createPollHintHub();
    const watch = hub.watch('gen_a');
    hub.notify('gen_a');
    hub.notify('gen_a');
    await watch.sleep(MINUTE);
    let woke = false;
    const next = watch.sleep(MINUTE).then(() => (woke = true));
    await nextTurn();
    assert.equal(woke, false, 'two hints before the wait count once');
    hub.notify('gen_a');
    await next;
    watch.close();
  });

  it("give way to a cancelled activity: the wait rejects with the signal's reason", async () => {
    const hub = createPollHintHub();
    const watch = hub.watch('gen_a');
    const controller = new AbortController();
    const waiting = watch.sleep(MINUTE, controller.signal);
    controller.abort(new Error('activity cancelled'));
    await assert.rejects(waiting, /activity cancelled/);
    await assert.rejects(watch.sleep(MINUTE, controller.signal), /activity cancelled/, 'already aborted: at once');
    watch.close();
  });

  it('are forgotten once the polling ends', async () => {
    const hub = createPollHintHub();
    const first = hub.watch('gen_a');
    const second = hub.watch('gen_a');
    assert.equal(hub.watched(), 1);
    first.close();
    assert.equal(hub.watched(), 1, 'another poll of the job still watches');
    second.close();
    assert.equal(hub.watched(), 0);
    hub.notify('gen_a');
  });
});
