import { useAsync, type AsyncState } from '../components/async';
import { useCursor, type Cursor } from '../components/pagination';

// One page at a time of a Stripe-style list (`limit`, `starting_after`, `has_more`) for the
// management views (keys, users, webhooks, deliveries): the client's iterators read every page,
// a person reads one.

const PAGE_SIZE = 20;

export interface ListPage<T> {
  data: T[];
  has_more: boolean;
}

/** The `limit` and `starting_after` query of a page. */
export const pageQuery = (startingAfter: string | undefined) => ({ limit: String(PAGE_SIZE), ...(startingAfter && { starting_after: startingAfter }) });

/** The current page of `load`, its cursor for the Pager, and the last id on it (the next page's cursor). */
export function useListPage<T extends { id: string }>(
  load: (startingAfter: string | undefined) => Promise<ListPage<T>>,
  deps: unknown[] = [],
): { page: AsyncState<ListPage<T>>; cursor: Cursor; lastId: string | undefined } {
  const cursor = useCursor();
  const page = useAsync(() => load(cursor.startingAfter), [cursor.startingAfter, ...deps]);
  return { page, cursor, lastId: page.data?.data.at(-1)?.id };
}
