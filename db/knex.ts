import knexFactory, { type Knex } from 'knex';
import pg from 'pg';

// Credits are bigint columns; they stay far below 2^53, so numbers are the honest JS type.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number.parseInt(value, 10));
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (value) => Number.parseFloat(value));

export type Db = Knex | Knex.Transaction;

export function createKnex(databaseUrl: string, opts: { poolMax?: number } = {}): Knex {
  return knexFactory({
    client: 'pg',
    connection: databaseUrl,
    pool: { min: 0, max: opts.poolMax ?? 10 },
  });
}
