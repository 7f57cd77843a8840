import type { Knex } from 'knex';
import type { Db } from '../knex';

// Who decided a generation's admission for one deadline (db/migrations/0008-admission-claims.ts):
// the worker's admission statement claims it when it admits or refuses; the API claims it when it
// gives up waiting. The first claim stands.

export function createAdmissionClaimsRepo(knex: Knex) {
  return {
    /**
     * The API gives up on an admission: true when it claimed it first, so the reservation can never
     * commit; false when a worker already decided it (the generation row, if admitted, is there).
     */
    async abandon(generationId: string, admitBy: number, trx: Db = knex): Promise<boolean> {
      const result = await trx.raw(
        `INSERT INTO admission_claims (generation_id, admit_by, claimed_by) VALUES (?, ?, 'api')
         ON CONFLICT DO NOTHING RETURNING 1`,
        [generationId, admitBy],
      );
      return result.rowCount === 1;
    },

    /** Why an admission that did not admit was refused: its deadline, or the wallet. */
    async refusalReason(generationId: string, admitBy: number | undefined, trx: Db = knex): Promise<'admission_timeout' | 'insufficient_credits'> {
      if (admitBy === undefined) return 'insufficient_credits';
      const row = await trx('admission_claims').where({ generation_id: generationId, admit_by: admitBy }).first('claimed_by');
      return row?.claimed_by === 'worker' ? 'insufficient_credits' : 'admission_timeout';
    },

    /** Claims are only needed while an API may still be waiting on their deadline. */
    async deleteExpired(olderThan: Date, trx: Db = knex): Promise<number> {
      return trx('admission_claims').where('admit_by', '<', olderThan.getTime()).delete();
    },
  };
}

export type AdmissionClaimsRepo = ReturnType<typeof createAdmissionClaimsRepo>;
