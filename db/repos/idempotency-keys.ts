import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { Environment } from '../../domain/generation-status';
import type { Db } from '../knex';

/**
 * Whose key it is: an API key's, scoped to its organization and environment, or the operator's,
 * scoped to the organization it acts on (environment `live`). The two never meet.
 */
export type IdempotencyCaller = 'api_key' | 'operator';

export interface IdempotencyScope {
  organizationId: string;
  environment: Environment;
  key: string;
  /** `api_key` unless said otherwise. */
  caller?: IdempotencyCaller;
}

export interface IdempotencyRequest extends IdempotencyScope {
  endpoint: string;
  requestHash: string;
  /**
   * Used when this request is the first with its key (or the key's earlier use has expired); null
   * when the request creates no resource of its own.
   */
  newResourceId: string | null;
  now: Date;
  /** Rows created at or before this time are expired and start over. */
  expiredBefore: Date;
  /** How long a request may hold the key before a retry may take it over. */
  lockedUntil: Date;
}

/** A claim as its holder knows it: only the owner token completes, forgets or releases it. */
export interface HeldClaim extends IdempotencyScope {
  ownerToken: string;
}

export type IdempotencyClaim =
  | { kind: 'claimed'; resourceId: string | null; takenOver: boolean; held: HeldClaim }
  | { kind: 'replay'; status: number; body: unknown }
  | { kind: 'in_progress' }
  | { kind: 'mismatch' };

interface Row {
  endpoint: string;
  request_hash: string;
  state: 'in_progress' | 'completed';
  response_status: number | null;
  response_body: unknown;
}

export function createIdempotencyKeysRepo(knex: Knex) {
  const scopeOf = (s: IdempotencyScope) => ({
    organization_id: s.organizationId,
    environment: s.environment,
    caller: s.caller ?? 'api_key',
    key: s.key,
  });
  // Only the claim's owner, and only while it is still in progress.
  const heldRow = (db: Db, held: HeldClaim) => db('idempotency_keys').where(scopeOf(held)).where({ owner_token: held.ownerToken, state: 'in_progress' });

  return {
    /**
     * Claims a key for a request in one statement: a new key, an expired one (starts over with a
     * new resource id) or an abandoned one with the same request (taken over, same resource id).
     * Every claim gets a new owner token, so the request it was taken from can no longer settle it.
     * Otherwise says why not: the stored response to replay, still in progress, or another request.
     */
    async claim(req: IdempotencyRequest, trx: Db = knex): Promise<IdempotencyClaim> {
      const held: HeldClaim = { ...req, caller: req.caller ?? 'api_key', ownerToken: randomUUID() };
      for (let attempt = 0; attempt < 3; attempt++) {
        // A takeover keeps the row's created_at, which is before `now` (its lock, later than its
        // creation, has passed); a new or restarted key is created `now`.
        const claimed = await trx.raw(
          `INSERT INTO idempotency_keys AS i (organization_id, environment, caller, key, endpoint, request_hash, resource_id, state, created_at, locked_until, owner_token)
           VALUES (:organizationId, :environment, :caller, :key, :endpoint, :requestHash, :newResourceId, 'in_progress', :now, :lockedUntil, :ownerToken)
           ON CONFLICT (organization_id, environment, caller, key) DO UPDATE
              SET endpoint = excluded.endpoint,
                  request_hash = excluded.request_hash,
                  resource_id = CASE WHEN i.created_at <= :expiredBefore THEN excluded.resource_id ELSE i.resource_id END,
                  created_at = CASE WHEN i.created_at <= :expiredBefore THEN excluded.created_at ELSE i.created_at END,
                  state = 'in_progress', response_status = NULL, response_body = NULL,
                  locked_until = excluded.locked_until,
                  owner_token = excluded.owner_token
            WHERE i.created_at <= :expiredBefore
               OR (i.state = 'in_progress' AND i.locked_until <= :now
                   AND i.endpoint = excluded.endpoint AND i.request_hash = excluded.request_hash)
           RETURNING resource_id, created_at <> :now AS taken_over`,
          { ...req, caller: held.caller, ownerToken: held.ownerToken },
        );
        const won = claimed.rows[0] as { resource_id: string | null; taken_over: boolean } | undefined;
        if (won) return { kind: 'claimed', resourceId: won.resource_id, takenOver: won.taken_over, held };

        const row = (await trx('idempotency_keys').where(scopeOf(req)).first()) as Row | undefined;
        // Deleted in between (its request failed validation): claim again.
        if (!row) continue;
        if (row.endpoint !== req.endpoint || row.request_hash !== req.requestHash) return { kind: 'mismatch' };
        if (row.state === 'in_progress') return { kind: 'in_progress' };
        return { kind: 'replay', status: row.response_status ?? 200, body: row.response_body };
      }
      return { kind: 'in_progress' };
    },

    /** Remembers the answer. False when the claim is no longer this request's (taken over). */
    async complete(held: HeldClaim, response: { status: number; body: unknown }, trx: Db = knex): Promise<boolean> {
      const updated = await heldRow(trx, held).update({
        state: 'completed',
        response_status: response.status,
        response_body: JSON.stringify(response.body),
      });
      return updated === 1;
    },

    /** The request failed validation: nothing is remembered, the key is free again. False as above. */
    async forget(held: HeldClaim, trx: Db = knex): Promise<boolean> {
      return (await heldRow(trx, held).delete()) === 1;
    },

    /** The request broke (5xx): a retry may take over at once, with the same resource id. False as above. */
    async release(held: HeldClaim, now: Date, trx: Db = knex): Promise<boolean> {
      return (await heldRow(trx, held).update({ locked_until: now })) === 1;
    },
  };
}

export type IdempotencyKeysRepo = ReturnType<typeof createIdempotencyKeysRepo>;
