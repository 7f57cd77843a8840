// A provider's callback is a hint that its job changed (fal's and Replicate's webhooks): it wakes
// the poll waiting on that job, which then asks the provider's own API at once instead of at its
// next scheduled poll. The API hands hints to the workers through Postgres (NOTIFY
// provider_callbacks: db/provider-callbacks.ts, worker/poll-hint-listener.ts), not through
// Temporal, so a hint costs no signal, no workflow task and no replaced activity, and it reaches
// the poll however its activity's heartbeats are throttled. A hint that is lost costs only the
// wait it would have cut: the poll runs on its schedule all the same.

export interface PollHints {
  /** Watches one job's hints while it is polled; close it when the polling ends. */
  watch(key: string): PollHintWatch;
}

export interface PollHintWatch {
  /**
   * Waits `ms`, or less: until a hint for the job arrives, or at once if one arrived since the
   * last wait began. Rejects with the signal's reason if it aborts first.
   */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  close(): void;
}

/** The hints of this process, fed by `notify` (the listener), read by the polls through `watch`. */
export function createPollHintHub(): PollHints & { notify(key: string): void; watched(): number } {
  const watches = new Map<string, Set<{ hinted: boolean; wake?: () => void }>>();
  return {
    notify(key) {
      for (const w of watches.get(key) ?? []) {
        w.hinted = true;
        w.wake?.();
      }
    },
    watched: () => watches.size,
    watch(key) {
      const w: { hinted: boolean; wake?: () => void } = { hinted: false };
      let set = watches.get(key);
      if (!set) watches.set(key, (set = new Set()));
      set.add(w);
      return {
        sleep(ms, signal) {
          return new Promise<void>((resolve, reject) => {
            if (signal?.aborted) return reject(signal.reason);
            if (w.hinted) {
              w.hinted = false;
              return resolve();
            }
            const done = () => {
              clearTimeout(timer);
              signal?.removeEventListener('abort', aborted);
              w.wake = undefined;
              w.hinted = false;
            };
            const aborted = () => {
              done();
              reject(signal!.reason);
            };
            const timer = setTimeout(() => {
              done();
              resolve();
            }, ms);
            w.wake = () => {
              done();
              resolve();
            };
            signal?.addEventListener('abort', aborted, { once: true });
          });
        },
        close() {
          set!.delete(w);
          if (set!.size === 0 && watches.get(key) === set) watches.delete(key);
        },
      };
    },
  };
}
