import type { Knex } from 'knex';
import { loadConfig, requireSetting } from '../config';
import { createKnex } from './knex';
import * as initial from './migrations/0001-initial';
import * as rateLimits from './migrations/0002-rate-limits';
import * as guardFastPaths from './migrations/0003-guard-fast-paths';
import * as idempotencyAndCache from './migrations/0004-idempotency-and-cache';
import * as uploads from './migrations/0005-uploads';
import * as providerJobs from './migrations/0006-provider-jobs';
import * as usersAndKeyRoles from './migrations/0007-users-and-key-roles';
import * as admissionClaims from './migrations/0008-admission-claims';
import * as idempotencyOwner from './migrations/0009-idempotency-owner';
import * as comparisons from './migrations/0010-comparisons';
import * as webhooks from './migrations/0011-webhooks';
import * as usage from './migrations/0012-usage';
import * as anomalyDetector from './migrations/0013-anomaly-detector';
import * as providers from './migrations/0014-providers';
import * as closedProviderRoutes from './migrations/0015-closed-provider-routes';
import * as openAttempts from './migrations/0016-open-attempts';
import * as budgetMonths from './migrations/0017-budget-months';
import * as providerKeyOwner from './migrations/0018-provider-key-owner';
import * as webhookDeliveriesDue from './migrations/0019-webhook-deliveries-due';
import * as webhookEndpointHealth from './migrations/0020-webhook-endpoint-health';
import * as eventSequenceAndFeed from './migrations/0021-event-sequence-and-feed';
import * as webhookThrottling from './migrations/0022-webhook-throttling';
import * as webhookRecoveries from './migrations/0023-webhook-recoveries';
import * as eventRetention from './migrations/0024-event-retention';
import * as deadlines from './migrations/0025-deadlines';
import * as outputRetention from './migrations/0026-output-retention';
import * as pricingSnapshots from './migrations/0027-pricing-snapshots';

// Migrations are listed here rather than discovered on disk, so they run the same under tsx,
// compiled JavaScript or a bundle.
const MIGRATIONS: Record<string, Knex.Migration> = {
  '0001-initial': initial,
  '0002-rate-limits': rateLimits,
  '0003-guard-fast-paths': guardFastPaths,
  '0004-idempotency-and-cache': idempotencyAndCache,
  '0005-uploads': uploads,
  '0006-provider-jobs': providerJobs,
  '0007-users-and-key-roles': usersAndKeyRoles,
  '0008-admission-claims': admissionClaims,
  '0009-idempotency-owner': idempotencyOwner,
  '0010-comparisons': comparisons,
  '0011-webhooks': webhooks,
  '0012-usage': usage,
  '0013-anomaly-detector': anomalyDetector,
  '0014-providers': providers,
  '0015-closed-provider-routes': closedProviderRoutes,
  '0016-open-attempts': openAttempts,
  '0017-budget-months': budgetMonths,
  '0018-provider-key-owner': providerKeyOwner,
  '0019-webhook-deliveries-due': webhookDeliveriesDue,
  '0020-webhook-endpoint-health': webhookEndpointHealth,
  '0021-event-sequence-and-feed': eventSequenceAndFeed,
  '0022-webhook-throttling': webhookThrottling,
  '0023-webhook-recoveries': webhookRecoveries,
  '0024-event-retention': eventRetention,
  '0025-deadlines': deadlines,
  '0026-output-retention': outputRetention,
  '0027-pricing-snapshots': pricingSnapshots,
};

const migrationSource: Knex.MigrationSource<string> = {
  getMigrations: async () => Object.keys(MIGRATIONS),
  getMigrationName: (name) => name,
  getMigration: async (name) => {
    const migration = MIGRATIONS[name];
    if (!migration) throw new Error(`unknown migration ${name}`);
    return migration;
  },
};

export async function migrateToLatest(knex: Knex): Promise<void> {
  await knex.migrate.latest({ migrationSource });
}

if (require.main === module) {
  void (async () => {
    const config = loadConfig();
    const knex = createKnex(requireSetting(config.databaseUrl, 'DATABASE_URL', 'migrations need a database'));
    try {
      await migrateToLatest(knex);
      console.log(JSON.stringify({ level: 'info', msg: 'migrations applied' }));
    } finally {
      await knex.destroy();
    }
  })();
}
