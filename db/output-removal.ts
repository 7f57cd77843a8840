import type { Knex } from 'knex';
import type { Storage } from '../storage/types';

// Removing output files (issue 42 item 3), shared by the retention sweep (activities/output-retention.ts)
// and DELETE /v1/generations/{id}/outputs. The output rows stay, marked `deleted_at`: the generation
// record and its money are never touched. Cache hits share their source's files
// (db/repos/generations.ts insertCacheHit), so a file is removed only when no other output row with
// its storage key is still live (not deleted, not expired); the last row to go removes it.
//
// The rows are locked (FOR UPDATE ... SKIP LOCKED) for the whole removal, inside the caller's
// transaction: two sweeps, or a sweep and a DELETE, never work on the same row, and a removal
// interrupted before its commit leaves the rows unmarked, so the next run removes the files again
// (removing a file that is already gone is not an error).

interface LockedOutput {
  id: string;
  storage_key: string;
}

/** Removes the files of these locked output rows that nothing else still uses, then marks the rows deleted; how many rows. */
async function removeLocked(trx: Knex.Transaction, storage: Pick<Storage, 'delete'>, rows: LockedOutput[], now: Date): Promise<{ outputs: number; files: number }> {
  if (rows.length === 0) return { outputs: 0, files: 0 };
  const ids = rows.map((r) => r.id);
  const keys = [...new Set(rows.map((r) => r.storage_key))];
  const stillUsed = await trx('generation_outputs as o')
    .leftJoin('output_expiries as x', 'x.generation_id', 'o.generation_id')
    .whereIn('o.storage_key', keys)
    .whereNotIn('o.id', ids)
    .whereNull('o.deleted_at')
    .whereRaw('(x.expires_at IS NULL OR x.expires_at > ?)', [now])
    .distinct('o.storage_key');
  const kept = new Set(stillUsed.map((r: { storage_key: string }) => r.storage_key));
  const doomed = keys.filter((key) => !kept.has(key));
  for (const key of doomed) await storage.delete(key);
  await trx('generation_outputs').whereIn('id', ids).update({ deleted_at: now });
  return { outputs: rows.length, files: doomed.length };
}

/** One batch of outputs past their expiry: files removed, rows marked deleted. */
export async function removeExpiredOutputs(knex: Knex, storage: Pick<Storage, 'delete'>, now: Date, limit: number): Promise<{ outputs: number; files: number }> {
  return knex.transaction(async (trx) => {
    const rows: LockedOutput[] = await trx('generation_outputs as o')
      .join('output_expiries as x', 'x.generation_id', 'o.generation_id')
      .whereNull('o.deleted_at')
      .whereNotNull('x.expires_at')
      .where('x.expires_at', '<=', now)
      .orderBy('x.expires_at')
      .limit(limit)
      .forUpdate('o')
      .skipLocked()
      .select('o.id', 'o.storage_key');
    return removeLocked(trx, storage, rows, now);
  });
}

/** Every live output of one generation: files removed, rows marked deleted (DELETE .../outputs). */
export async function removeGenerationOutputs(knex: Knex, storage: Pick<Storage, 'delete'>, generationId: string, now: Date): Promise<{ outputs: number; files: number }> {
  return knex.transaction(async (trx) => {
    // Not SKIP LOCKED: a sweep holding one of these rows is removing it already; wait for it.
    const rows: LockedOutput[] = await trx('generation_outputs').where({ generation_id: generationId }).whereNull('deleted_at').forUpdate().select('id', 'storage_key');
    return removeLocked(trx, storage, rows, now);
  });
}
