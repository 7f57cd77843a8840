import type { RecoveryWithProgress } from '../../db/repos/webhook-recoveries';

// A bulk recovery as the API shows it (docs/api.md "Bulk recovery"): its window, its job's status,
// and its progress counted from the deliveries it created.

export function presentRecovery(row: RecoveryWithProgress) {
  return {
    id: row.id,
    object: 'webhook_recovery' as const,
    webhook_id: row.webhook_id,
    since: row.since.toISOString(),
    until: row.until.toISOString(),
    status: row.status,
    total: row.total,
    replayed: row.replayed,
    succeeded: row.succeeded,
    created_at: row.created_at.toISOString(),
    completed_at: row.completed_at ? row.completed_at.toISOString() : null,
  };
}
