import { Connection } from '@temporalio/client';
import type { Knex } from 'knex';
import { createKnex } from '../db/knex';

// How the API connects to Postgres and Temporal, so that an outage of either is noticed within
// seconds and the API recovers by itself once the dependency is back (no restart).

/**
 * Every statement the API sends is short (lookups, one-row writes, short transactions), so one
 * that has not answered in 5 s means the server is frozen or gone: 503, not a request that hangs.
 */
export const API_QUERY_TIMEOUT_MS = 5_000;

/** The API's pool: knex's bounded connect and acquire waits, plus the statement cap above. */
export function createApiKnex(databaseUrl: string, opts: { poolMax?: number } = {}): Knex {
  return createKnex(databaseUrl, { ...opts, queryTimeoutMs: API_QUERY_TIMEOUT_MS });
}

/**
 * gRPC reconnects by itself after Temporal comes back, but its backoff grows to 2 minutes during a
 * long outage; capped at 5 s, the API is serving again within 5 s of Temporal's return.
 */
export function connectApiTemporal(address: string): Promise<Connection> {
  return Connection.connect({ address, channelArgs: { 'grpc.max_reconnect_backoff_ms': 5_000 } });
}
