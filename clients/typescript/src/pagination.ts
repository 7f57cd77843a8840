// Stripe-style pages (`{ data, has_more }`, the next page after `starting_after: <last id>`) as
// one async iterator over the items, fetching each page only when the previous one is used up.

export interface Page<T> {
  data: T[];
  has_more: boolean;
}

export async function* paginate<T extends { id: string }>(fetchPage: (startingAfter: string | undefined) => Promise<Page<T>>): AsyncGenerator<T, void, undefined> {
  let startingAfter: string | undefined;
  for (;;) {
    const page = await fetchPage(startingAfter);
    yield* page.data;
    const last = page.data.at(-1);
    if (!page.has_more || !last) return;
    startingAfter = last.id;
  }
}
