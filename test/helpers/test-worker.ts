import { NativeConnection, Worker } from '@temporalio/worker';
import { createActivities, type Activities, type ActivityDeps } from '../../activities';
import type { ProviderRegistry } from '../../activities/providers/registry';
import type { ProviderAdapter } from '../../activities/providers/types';
import type { WebhookDeps } from '../../config/webhook-settings';
import { createKnex } from '../../db/knex';
import { createRepos } from '../../db/repos';
import { createLogger } from '../../lib/logger';
import { startPollHintListener } from '../../worker/poll-hint-listener';
import { providerDoublesRegistry } from './provider-doubles';
import { stack } from './stack';

/**
 * A worker of a test's own, in-process, on its own task queue, with the stack's database and
 * storage, and the providers' callbacks as poll hints; the providers (by default every real one
 * stood in for by the simulator, test/helpers/provider-doubles.ts, as on the stack's own worker) and
 * callback URLs may be the test's.
 */
export async function startTestWorker(
  taskQueue: string,
  opts: {
    /** Serves every route, the real providers' and the simulator's (a simulator the test steers). */
    provider?: ProviderAdapter;
    /** Real adapters, routes and credentials; overrides `provider`. */
    providers?: ProviderRegistry;
    callbackUrlFor?: ActivityDeps['callbackUrlFor'];
    outputCapsBytes?: ActivityDeps['outputCapsBytes'];
    recordJobPatienceMs?: ActivityDeps['recordJobPatienceMs'];
    /** The activities' database, when it is not the stack's (a proxy in front of it, to cut it off). */
    databaseUrl?: string;
    reconcilerPageSize?: ActivityDeps['reconcilerPageSize'];
    /** The activities' storage, when it is not the stack's (one that fails, say). */
    storage?: ActivityDeps['storage'];
    /** Replaces some activities (a fault injected into one step). */
    activities?: (real: Activities) => Partial<Activities>;
    /** Webhook settings, for a worker that delivers webhooks (its relay's task queue is this one's). */
    webhooks?: WebhookDeps;
    /** Activity slots (one: a second job queues behind the first, not started). */
    maxConcurrentActivityTaskExecutions?: number;
  } = {},
): Promise<{ stop(): Promise<void> }> {
  const { workflowBundle, config, apiDeps, temporal } = stack();
  const ownKnex = opts.databaseUrl ? createKnex(opts.databaseUrl) : undefined;
  const knex = ownKnex ?? stack().knex;
  const repos = ownKnex ? createRepos(ownKnex) : stack().repos;
  const connection = await NativeConnection.connect({ address: config.temporalAddress! });
  const pollHints = await startPollHintListener(config.databaseUrl!, createLogger({ level: 'error' }));
  const worker = await Worker.create({
    connection,
    taskQueue,
    workflowBundle,
    ...(opts.maxConcurrentActivityTaskExecutions !== undefined && { maxConcurrentActivityTaskExecutions: opts.maxConcurrentActivityTaskExecutions }),
    activities: withOverrides(
      opts.activities,
      createActivities({
        knex,
        repos,
        storage: opts.storage ?? apiDeps.storage,
        providers: opts.providers ?? providerDoublesRegistry(opts.provider && { simulator: opts.provider }),
        // Fake providers serve their files from 127.0.0.1.
        allowPrivateOutputUrls: true,
        ...(opts.outputCapsBytes && { outputCapsBytes: opts.outputCapsBytes }),
        ...(opts.recordJobPatienceMs !== undefined && { recordJobPatienceMs: opts.recordJobPatienceMs }),
        temporal,
        ...(opts.callbackUrlFor && { callbackUrlFor: opts.callbackUrlFor }),
        pollHints: pollHints.hints,
        ...(opts.reconcilerPageSize !== undefined && { reconcilerPageSize: opts.reconcilerPageSize }),
        ...(opts.webhooks && { webhooks: opts.webhooks }),
      }),
    ),
  });
  const running = worker.run();
  return {
    async stop() {
      worker.shutdown();
      await running;
      await pollHints.close();
      await connection.close();
      await ownKnex?.destroy();
    },
  };
}

function withOverrides(overrides: ((real: Activities) => Partial<Activities>) | undefined, real: Activities): Activities {
  return overrides ? { ...real, ...overrides(real) } : real;
}
