import type { Db } from '../knex';
import { SEND_AT_ONCE_WITHIN_MS } from '../../domain/webhook-throttle';

// A throttled subscription's sends (issue 41, docs/api.md "Throttling"), in two steps on its row:
// - a slot, GCRA-style: one atomic UPDATE hands out the later of the next free slot and now, and
//   moves the next free slot 1/rate seconds on. Concurrent senders queue on the row's lock for
//   microseconds, never on each other's sends, and each sleeps until its own slot: no herd wakes.
// - a gate, when the send goes (`passSendGate`). A timer fires at its slot or later, and a loaded
//   worker can run one late enough to land next to the following ones; the gate turns such lateness
//   into a short second wait instead of a burst at the receiver.
// A rate changed by PATCH spaces the slots taken afterwards and gates at once; slots already handed
// out keep their time.

const interval = 'make_interval(secs => 1.0 / max_deliveries_per_second)';

/**
 * Takes the subscription's next send slot for `deliveryId`'s attempt; returns how long to wait for it
 * in ms (0: send now), or null when the subscription is not throttled (any more). A slot in the future
 * is also written as the delivery's `next_attempt_at`, so the delivery log shows when it goes out and
 * the relay's sweep does not count the delivery overdue while it waits.
 */
export async function takeSendSlot(trx: Db, args: { deliveryId: string; subscriptionId: string }): Promise<number | null> {
  const { rows } = await trx.raw(
    `WITH slot AS (
           UPDATE webhook_subscriptions
              SET next_send_slot_at = greatest(next_send_slot_at, now()) + ${interval}
            WHERE id = :subscriptionId AND max_deliveries_per_second IS NOT NULL
            RETURNING next_send_slot_at - ${interval} AS slot_at
         ), due AS (
           UPDATE webhook_deliveries
              SET next_attempt_at = (SELECT slot_at FROM slot)
            WHERE id = :deliveryId AND status IN ('pending', 'failed')
              AND (SELECT slot_at FROM slot) > now() + make_interval(secs => :atOnceMs / 1000.0)
         )
         SELECT greatest(0, extract(epoch FROM slot_at - now()) * 1000)::float8 AS wait_ms FROM slot`,
    { ...args, atOnceMs: SEND_AT_ONCE_WITHIN_MS },
  );
  const row = rows[0] as { wait_ms: number } | undefined;
  return row ? row.wait_ms : null;
}

/**
 * The gate, GCRA with half an interval of tolerance: a send passes while the gate's theoretical
 * time is at most T/2 (T = 1/rate) ahead of now, and moves it T on (from now, if it lagged). So over
 * any window W at most floor((W + T/2) / T) + 1 sends pass (for W = 1 s and a whole rate r: r + 1),
 * and a send late by less than T/2 delays none after it. Returns 0 when this send may go now, else
 * how long to wait before trying again (at least SEND_AT_ONCE_WITHIN_MS); always 0 for a
 * subscription no longer throttled.
 */
export async function passSendGate(trx: Db, subscriptionId: string): Promise<number> {
  const { rows } = await trx.raw(
    `WITH passed AS (
           UPDATE webhook_subscriptions
              SET send_gate_at = greatest(send_gate_at, clock_timestamp()) + ${interval}
            WHERE id = :subscriptionId
              AND (max_deliveries_per_second IS NULL OR send_gate_at IS NULL OR send_gate_at <= clock_timestamp() + ${interval} / 2)
            RETURNING id
         )
         SELECT CASE WHEN EXISTS (SELECT 1 FROM passed) THEN 0
                     ELSE greatest(:atOnceMs, extract(epoch FROM send_gate_at - ${interval} / 2 - clock_timestamp()) * 1000)
                 END::float8 AS wait_ms
           FROM webhook_subscriptions WHERE id = :subscriptionId`,
    { subscriptionId, atOnceMs: SEND_AT_ONCE_WITHIN_MS },
  );
  const row = rows[0] as { wait_ms: number } | undefined;
  return row ? row.wait_ms : 0;
}
