import type { Knex } from 'knex';
import type { Environment } from '../../domain/generation-status';

export interface IdempotencyScope {
  organizationId: string;
  environment: Environment;
  key: string;
}

export interface IdempotencyRequest extends IdempotencyScope {
  endpoint: string;
  requestHash: string;
  /** Used when this request is the first with its key (or the key's earlier use has expired). */
  newResourceId: string;
  now: Date;
  /** Rows created at or before this time are expired and start over. */
  expiredBefore: Date;
  /** How long a request may hold the key before a retry may take it over. */
  lockedUntil: Date;
}

export type IdempotencyClaim =
  | { kind: 'claimed'; resourceId: string; takenOver: boolean }
  | { kind: 'replay'; status: number; body: unknown }
  | { kind: 'in_progress' }
  | { kind: 'mismatch' };

interface Row {
  endpoint: string;
  request_hash: string;
  resource_id: string;
  state: 'in_progress' | 'completed';
  response_status: number | null;
  response_body: unknown;
}

export function createIdempotencyKeysRepo(knex: Knex) {
  const scopeOf = (s: IdempotencyScope) => ({ organization_id: s.organizationId, environment: s.environment, key: s.key });

  return {
    /**
     * Claims a key for a request in one statement: a new key, an expired one (starts over with a
     * new resource id) or an abandoned one with the same request (taken over, same resource id).
     * Otherwise says why not: the stored response to replay, still in progress, or another request.
     */
    async claim(req: IdempotencyRequest): Promise<IdempotencyClaim> {
      for (let attempt = 0; attempt < 3; attempt++) {
        const claimed = await knex.raw(
          `INSERT INTO idempotency_keys AS i (organization_id, environment, key, endpoint, request_hash, resource_id, state, created_at, locked_until)
           VALUES (:organizationId, :environment, :key, :endpoint, :requestHash, :newResourceId, 'in_progress', :now, :lockedUntil)
           ON CONFLICT (organization_id, environment, key) DO UPDATE
              SET endpoint = excluded.endpoint,
                  request_hash = excluded.request_hash,
                  resource_id = CASE WHEN i.created_at <= :expiredBefore THEN excluded.resource_id ELSE i.resource_id END,
                  created_at = CASE WHEN i.created_at <= :expiredBefore THEN excluded.created_at ELSE i.created_at END,
                  state = 'in_progress', response_status = NULL, response_body = NULL,
                  locked_until = excluded.locked_until
            WHERE i.created_at <= :expiredBefore
               OR (i.state = 'in_progress' AND i.locked_until <= :now
                   AND i.endpoint = excluded.endpoint AND i.request_hash = excluded.request_hash)
           RETURNING resource_id, resource_id <> :newResourceId AS taken_over`,
          { ...req },
        );
        const won = claimed.rows[0] as { resource_id: string; taken_over: boolean } | undefined;
        if (won) return { kind: 'claimed', resourceId: won.resource_id, takenOver: won.taken_over };

        const row = (await knex('idempotency_keys').where(scopeOf(req)).first()) as Row | undefined;
        // Deleted in between (its request failed validation): claim again.
        if (!row) continue;
        if (row.endpoint !== req.endpoint || row.request_hash !== req.requestHash) return { kind: 'mismatch' };
        if (row.state === 'in_progress') return { kind: 'in_progress' };
        return { kind: 'replay', status: row.response_status ?? 200, body: row.response_body };
      }
      return { kind: 'in_progress' };
    },

    async complete(scope: IdempotencyScope, response: { status: number; body: unknown }): Promise<void> {
      await knex('idempotency_keys')
        .where(scopeOf(scope))
        .update({ state: 'completed', response_status: response.status, response_body: JSON.stringify(response.body) });
    },

    /** The request failed validation: nothing is remembered, the key is free again. */
    async forget(scope: IdempotencyScope): Promise<void> {
      await knex('idempotency_keys').where(scopeOf(scope)).where({ state: 'in_progress' }).delete();
    },

    /** The request broke (5xx): a retry may take over at once, with the same resource id. */
    async release(scope: IdempotencyScope, now: Date): Promise<void> {
      await knex('idempotency_keys').where(scopeOf(scope)).where({ state: 'in_progress' }).update({ locked_until: now });
    },
  };
}

export type IdempotencyKeysRepo = ReturnType<typeof createIdempotencyKeysRepo>;
