// Polling until an asynchronous resource (a generation, a comparison) reaches a terminal status:
// the interval grows from `pollIntervalMs` by half each time up to 5 s, and gives up with a
// WaitTimeoutError after `timeoutMs`.

export interface WaitOptions {
  /** Give up after this long (default 10 minutes). */
  timeoutMs?: number;
  /** The first interval between polls (default 500 ms); later ones grow to at most 5 s. */
  pollIntervalMs?: number;
}

const DEFAULT_TIMEOUT_MS = 10 * 60_000;
const DEFAULT_POLL_INTERVAL_MS = 500;
const MAX_POLL_INTERVAL_MS = 5_000;

/** The resource did not reach a terminal status in time; `last` is what was seen last. */
export class WaitTimeoutError<T = unknown> extends Error {
  constructor(
    message: string,
    readonly last: T,
  ) {
    super(message);
    this.name = 'WaitTimeoutError';
  }
}

export async function pollUntil<T extends { id: string; status: string }>(fetchOnce: () => Promise<T>, terminal: readonly string[], options: WaitOptions = {}): Promise<T> {
  const deadline = Date.now() + (options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  let interval = options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS;
  for (;;) {
    const current = await fetchOnce();
    if (terminal.includes(current.status)) return current;
    const left = deadline - Date.now();
    if (left <= 0) throw new WaitTimeoutError(`${current.id} is still ${current.status} after ${options.timeoutMs ?? DEFAULT_TIMEOUT_MS} ms`, current);
    await new Promise((resolve) => setTimeout(resolve, Math.min(interval, left)));
    interval = Math.min(MAX_POLL_INTERVAL_MS, interval * 1.5);
  }
}
