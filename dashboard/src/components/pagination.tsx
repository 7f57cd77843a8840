import { useState } from 'preact/hooks';

// Stripe-style cursor pages (`starting_after`, `has_more`): the cursors of the pages before are
// kept, so Previous goes back without a `ending_before`.

export interface Cursor {
  startingAfter: string | undefined;
  next(lastId: string): void;
  previous(): void;
  hasPrevious: boolean;
  reset(): void;
}

export function useCursor(): Cursor {
  const [stack, setStack] = useState<(string | undefined)[]>([undefined]);
  return {
    startingAfter: stack[stack.length - 1],
    next: (lastId) => setStack((s) => [...s, lastId]),
    previous: () => setStack((s) => (s.length > 1 ? s.slice(0, -1) : s)),
    hasPrevious: stack.length > 1,
    reset: () => setStack([undefined]),
  };
}

export function Pager({ cursor, hasMore, lastId }: { cursor: Cursor; hasMore: boolean; lastId: string | undefined }) {
  return (
    <nav class="pager" aria-label="Pages">
      <button type="button" class="btn btn-plain" disabled={!cursor.hasPrevious} onClick={cursor.previous}>
        ← Previous
      </button>
      <button type="button" class="btn btn-plain" disabled={!hasMore || !lastId} onClick={() => lastId && cursor.next(lastId)}>
        Next →
      </button>
    </nav>
  );
}
