import { Context } from '@temporalio/activity';
import type { Knex } from 'knex';
import { removeExpiredOutputs } from '../db/output-removal';
import { metrics } from '../observability/metrics';
import type { Storage } from '../storage/types';

// The output retention sweep's step (workflows/output-retention.ts, every minute from a Temporal
// Schedule): one bounded batch of outputs past their `expires_at`, their files removed from storage
// (local disk or S3) and their rows marked deleted, in one transaction that holds the rows with
// SKIP LOCKED (db/output-removal.ts). A batch interrupted before its commit is done again by the next
// one: removing a file that is already gone is not an error.

/** Outputs per batch: one short transaction of at most this many storage deletes. */
const OUTPUT_RETENTION_BATCH = 200;

export interface OutputRetentionDeps {
  knex: Knex;
  storage: Pick<Storage, 'delete'>;
  /** The sweep's "now"; tests move it forward to expire the outputs they made. */
  clock?: () => Date;
}

export interface RemovedOutputs {
  /** Due expiries the batch handled, and how many of them are done for good (their job finished). */
  expiries: number;
  swept: number;
  outputs: number;
  files: number;
}

export function createOutputRetentionActivities(deps: OutputRetentionDeps) {
  const clock = deps.clock ?? (() => new Date());
  return {
    /** Removes one batch of expired outputs; how many outputs were marked and files removed. */
    async deleteExpiredOutputBatch(): Promise<RemovedOutputs> {
      const removed = await removeExpiredOutputs(deps.knex, deps.storage, clock(), OUTPUT_RETENTION_BATCH);
      if (removed.outputs > 0 || removed.swept > 0) {
        metrics.outputFilesDeleted.inc({ reason: 'expired' }, removed.files);
        Context.current().log.info('deleted expired outputs', { ...removed });
      }
      return removed;
    },
  };
}
