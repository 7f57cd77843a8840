import { paginate } from '../pagination.js';
import { idempotencyHeaders, unwrap, type Api, type RequestOptions } from '../request.js';
import type { Generation, Query } from '../types.js';
import { pollUntil, type WaitOptions } from '../wait.js';

// client.generations: get, cancel, wait (poll until succeeded, failed or canceled) and list (an
// async iterator over every page).

const TERMINAL_GENERATION_STATUSES = ['succeeded', 'failed', 'canceled'] as const;

type ListQuery = Omit<Query<'/v1/generations', 'get'>, 'starting_after'>;

export function generationsResource(api: Api) {
  const get = (id: string) => unwrap<Generation>(api.GET('/v1/generations/{id}', { params: { path: { id } } }));
  return {
    get,
    cancel: (id: string, options?: RequestOptions) =>
      unwrap<Generation>(api.POST('/v1/generations/{id}/cancel', { params: { path: { id } }, headers: idempotencyHeaders(options) })),
    wait: (id: string, options?: WaitOptions) => pollUntil(() => get(id), TERMINAL_GENERATION_STATUSES, options),
    /** Every generation matching `query`, newest first, fetched a page at a time. */
    list: (query: ListQuery = {}) =>
      paginate<Generation>((startingAfter) => unwrap(api.GET('/v1/generations', { params: { query: { ...query, ...(startingAfter && { starting_after: startingAfter }) } } }))),
  };
}
