/** Runs at most `limit` of the given functions at once; the rest wait their turn, first come first served. */
export function createSemaphore(limit: number): <T>(fn: () => Promise<T>) => Promise<T> {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async function run<T>(fn: () => Promise<T>): Promise<T> {
    if (running >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    else running++;
    try {
      return await fn();
    } finally {
      // The slot passes straight to the next in line, so `running` never dips and lets a newcomer jump the queue.
      const next = waiting.shift();
      if (next) next();
      else running--;
    }
  };
}
