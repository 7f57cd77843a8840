import { paginate } from '../pagination.js';
import { idempotencyHeaders, unwrap, type Api, type RequestOptions } from '../request.js';
import type { Comparison, Query, RequestBody } from '../types.js';
import { pollUntil, type WaitOptions } from '../wait.js';

// client.comparisons: one prompt across several models; wait follows it to its verdict
// (succeeded, partial or failed).

const TERMINAL_COMPARISON_STATUSES = ['succeeded', 'partial', 'failed'] as const;

type ListQuery = Omit<Query<'/v1/comparisons', 'get'>, 'starting_after'>;

export function comparisonsResource(api: Api) {
  const get = (id: string) => unwrap<Comparison>(api.GET('/v1/comparisons/{id}', { params: { path: { id } } }));
  return {
    create: (body: RequestBody<'/v1/comparisons', 'post'>, options?: RequestOptions) =>
      unwrap<Comparison>(api.POST('/v1/comparisons', { body, headers: idempotencyHeaders(options) })),
    get,
    cancel: (id: string, options?: RequestOptions) =>
      unwrap<Comparison>(api.POST('/v1/comparisons/{id}/cancel', { params: { path: { id } }, headers: idempotencyHeaders(options) })),
    wait: (id: string, options?: WaitOptions) => pollUntil(() => get(id), TERMINAL_COMPARISON_STATUSES, options),
    list: (query: ListQuery = {}) =>
      paginate<Comparison>((startingAfter) => unwrap(api.GET('/v1/comparisons', { params: { query: { ...query, ...(startingAfter && { starting_after: startingAfter }) } } }))),
  };
}
