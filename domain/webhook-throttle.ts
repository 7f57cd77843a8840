// Per-endpoint throttling (issue 41, docs/api.md "Throttling"): the bounds of a subscription's
// `max_deliveries_per_second`, and when a send slot counts as "now". The slots themselves are taken
// in Postgres (db/repos/webhook-throttle.ts); the wait is a durable timer (workflows/webhook-delivery.ts).

/** One delivery every 100 s at the slowest; beyond 1000/s a cap protects no receiver we can reach. */
export const MIN_DELIVERIES_PER_SECOND = 0.01;
export const MAX_DELIVERIES_PER_SECOND = 1000;

/**
 * A slot this close is sent at once: a timer shorter than this costs a workflow task round trip and
 * buys a receiver nothing (the spacing is kept by the slots, not by each send's precision).
 */
export const SEND_AT_ONCE_WITHIN_MS = 10;
