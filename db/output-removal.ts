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

/** An expiry row that names no generation after this long was a refused admission: nothing will come. */
const ORPHAN_AFTER_MS = 86_400_000;

/**
 * One batch of due expiries (past `expires_at`, not yet swept), oldest first: their jobs' live
 * outputs' files removed and rows marked deleted, and each expiry whose job has finished (or that
 * names no job a day on: a refused admission) marked swept, never to be read again. A job still
 * running past its expiry stays due, so the outputs it stores later go in a later batch.
 */
export async function removeExpiredOutputs(
  knex: Knex,
  storage: Pick<Storage, 'delete'>,
  now: Date,
  limit: number,
): Promise<{ expiries: number; swept: number; outputs: number; files: number }> {
  return knex.transaction(async (trx) => {
    const due: string[] = (
      await trx('output_expiries')
        .whereNotNull('expires_at')
        .where('swept', false)
        .where('expires_at', '<=', now)
        .orderBy('expires_at')
        .limit(limit)
        .forUpdate()
        .skipLocked()
        .select('generation_id')
    ).map((r: { generation_id: string }) => r.generation_id);
    if (due.length === 0) return { expiries: 0, swept: 0, outputs: 0, files: 0 };
    // Not SKIP LOCKED: a DELETE .../outputs holding one of these rows is removing it already; wait for it.
    const rows: LockedOutput[] = await trx('generation_outputs').whereIn('generation_id', due).whereNull('deleted_at').forUpdate().select('id', 'storage_key');
    const removed = await removeLocked(trx, storage, rows, now);
    const swept = await trx('output_expiries as x')
      .whereIn('x.generation_id', due)
      .whereRaw(
        `(EXISTS (SELECT 1 FROM generations g WHERE g.id = x.generation_id AND g.status IN ('succeeded', 'failed', 'canceled'))
          OR (NOT EXISTS (SELECT 1 FROM generations g WHERE g.id = x.generation_id) AND x.created_at < ?))`,
        [new Date(now.getTime() - ORPHAN_AFTER_MS)],
      )
      .update({ swept: true });
    return { expiries: due.length, swept, ...removed };
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
