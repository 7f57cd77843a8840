import type { Knex } from 'knex';

// Sealed secrets by column, for the re-seal after a key rotation (worker/reseal-secrets.ts): finds
// the values not sealed with the newest key and swaps each for its re-sealed form, only if it is
// still the value that was read (a concurrent rotate-secret or PUT wins).

/** Where sealed values live: a table, the columns naming a row, the sealed column. */
export interface SealedColumn {
  table: string;
  keys: readonly string[];
  column: string;
}

export interface SealedValue {
  /** The row's key columns, in `SealedColumn.keys` order. */
  key: string[];
  sealed: string;
}

export function createSealedSecretsRepo(knex: Knex) {
  /** Values of `at` not starting with `prefix` (not sealed with the newest key). */
  const stale = (at: SealedColumn, prefix: string) => knex(at.table).whereNotNull(at.column).whereRaw('left(??, ?) <> ?', [at.column, prefix.length, prefix]);

  return {
    /** The next `limit` stale values after the row `after` (key order). */
    async staleBatch(at: SealedColumn, prefix: string, after: string[] | undefined, limit: number): Promise<SealedValue[]> {
      let query = stale(at, prefix);
      if (after) query = query.whereRaw(`(${at.keys.map(() => '??').join(', ')}) > (${at.keys.map(() => '?').join(', ')})`, [...at.keys, ...after]);
      const rows: Record<string, string>[] = await query
        .orderBy([...at.keys])
        .limit(limit)
        .select([...at.keys, at.column]);
      return rows.map((row) => ({ key: at.keys.map((k) => row[k]!), sealed: row[at.column]! }));
    },

    /** Replaces `value.sealed` by `resealed`; false when the row holds another value by now. */
    async replace(at: SealedColumn, value: SealedValue, resealed: string): Promise<boolean> {
      const where = Object.fromEntries(at.keys.map((k, i) => [k, value.key[i]!]));
      return (
        (await knex(at.table)
          .where(where)
          .where(at.column, value.sealed)
          .update({ [at.column]: resealed })) > 0
      );
    },

    async countStale(at: SealedColumn, prefix: string): Promise<number> {
      const [row] = await stale(at, prefix).count<{ count: string }[]>('* as count');
      return Number(row?.count ?? 0);
    },

    /** Every value of `at`, whatever it is sealed with. */
    async countAll(at: SealedColumn): Promise<number> {
      const [row] = await knex(at.table).whereNotNull(at.column).count<{ count: string }[]>('* as count');
      return Number(row?.count ?? 0);
    },
  };
}
