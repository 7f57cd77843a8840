import type { Knex } from 'knex';
import type { Db } from '../knex';

// When each generation's outputs expire (db/migrations/0026-output-retention.ts), and what a file
// URL's storage key answers to.

/** One output row with a storage key: its expiry (undefined: no expiry row, kept) and deletion mark. */
export interface OutputLifetime {
  generation_id: string;
  expires_at: Date | null;
  deleted_at: Date | null;
}

export function createOutputExpiriesRepo(knex: Knex) {
  return {
    /** The organization's own default (admin API), or null: the plan's. */
    async organizationRetentionDays(organizationId: string, trx: Db = knex): Promise<number | null> {
      const row = await trx('organizations').where({ id: organizationId }).first('retention_days');
      return (row?.retention_days as number | null | undefined) ?? null;
    },

    /** Records when these generations' outputs expire (null: never); a retried request keeps the first. */
    async record(generationIds: string[], expiresAt: Date | null, trx: Db = knex): Promise<void> {
      if (generationIds.length === 0) return;
      await trx('output_expiries')
        .insert(generationIds.map((id) => ({ generation_id: id, expires_at: expiresAt })))
        .onConflict('generation_id')
        .ignore();
    },

    /** Every output row stored under `key`, with its expiry and deletion mark. */
    async lifetimesOfKey(key: string, trx: Db = knex): Promise<OutputLifetime[]> {
      return trx('generation_outputs as o')
        .leftJoin('output_expiries as x', 'x.generation_id', 'o.generation_id')
        .where('o.storage_key', key)
        .select('o.generation_id', 'x.expires_at', 'o.deleted_at');
    },
  };
}
