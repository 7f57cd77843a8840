import knexFactory, { type Knex } from 'knex';
import pg from 'pg';

// Credits are bigint columns; they stay far below 2^53, so numbers are the honest JS type.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number.parseInt(value, 10));
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (value) => Number.parseFloat(value));

export type Db = Knex | Knex.Transaction;

// Bounded waits, so a database that is down (or frozen) is an error within seconds rather than a
// request hanging for knex's default 60 s. Both are far above what a healthy server needs, even
// at benchmark load on two cores.
/** Opening one connection: TCP, startup and authentication. */
const CONNECT_TIMEOUT_MS = 3_000;
/** Waiting for a pooled connection, which includes opening one. */
const ACQUIRE_CONNECTION_TIMEOUT_MS = 5_000;

export interface KnexOptions {
  poolMax?: number;
  /**
   * Client-side cap on one statement, for callers whose statements are all short (the API): it is
   * what notices a server that accepts connections but never answers. Off by default, since a
   * migration may legitimately run longer.
   */
  queryTimeoutMs?: number;
}

export function createKnex(databaseUrl: string, opts: KnexOptions = {}): Knex {
  return knexFactory({
    client: 'pg',
    connection: {
      connectionString: databaseUrl,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      ...(opts.queryTimeoutMs !== undefined && { query_timeout: opts.queryTimeoutMs }),
    },
    acquireConnectionTimeout: ACQUIRE_CONNECTION_TIMEOUT_MS,
    pool: { min: 0, max: opts.poolMax ?? 10, validate: answeredLastQuery },
  });
}

/**
 * A connection whose last statement hit the query timeout is still waiting for that answer, and
 * every statement sent after it would wait behind it: the pool drops it and opens a fresh one.
 * (`readyForQuery` is pg's own flag; @types/pg does not declare it.)
 */
function answeredLastQuery(connection: unknown): boolean {
  return (connection as { readyForQuery?: boolean }).readyForQuery !== false;
}
