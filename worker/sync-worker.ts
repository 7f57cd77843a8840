import { Client } from '@temporalio/client';
import { NativeConnection, type WorkerOptions } from '@temporalio/worker';
import type { Config } from '../config';
import { createKnex } from '../db/knex';
import { describeError, type Logger } from '../lib/logger';
import type { Tracing } from '../observability/tracing';
import { bundleWorkflowsInChildProcess } from './bundle-workflows';
import { createWorker } from './create-worker';
import { generationDepsFromConfig } from './generation-deps';
import { startPollHintListener } from './poll-hint-listener';
import type { providerRegistryFromConfig } from './provider-registry';
import { ensureSdkRuntime } from './sdk-runtime';

// The API process's own worker (API_EMBEDDED_WORKER): it polls the sync queue, and the Client the
// API starts sync generations with is built on the same NativeConnection, which is what lets
// Temporal hand a start's first workflow task straight back to it (eager workflow start) instead
// of through matching. A start that finds no free slot here goes to the queue, which every worker
// process polls too.

/** Workflow task polls the API's worker keeps open, on its normal and on its sticky queue each: all slots but twice this are left for eager starts (measured: 8 slots, 4 eager). */
const SYNC_WORKER_POLLERS = 2;

export interface SyncWorker {
  /** Starts on this client with `requestEagerStart` run their first task on this worker. */
  client: Client;
  taskQueue: string;
  /** The Temporal SDK core's metrics exporter of this process (worker/sdk-runtime.ts), for the API's /metrics; none with metrics off. */
  sdkCoreMetricsAddress: string | undefined;
  stop(): Promise<void>;
}

export async function startSyncWorker(
  config: Config,
  logger: Logger,
  opts: {
    address: string;
    databaseUrl: string;
    workflowBundle?: WorkerOptions['workflowBundle'];
    /** Replaces the real providers' adapters (worker/provider-registry.ts): a test stack's stand-ins. */
    providerAdapters?: Parameters<typeof providerRegistryFromConfig>[3];
    tracing?: Tracing;
    /** API_EMBEDDED_WORKER_SLOTS unless given (a test that fills them). */
    slots?: number;
  },
): Promise<SyncWorker> {
  const sdkCoreMetricsAddress = await ensureSdkRuntime(config, logger);
  // A pool of its own: the activities' statements never wait behind the API's requests, nor the
  // API's behind them, and they keep the worker's statement limits, not the API's 5 s.
  const knex = createKnex(opts.databaseUrl);
  const connection = await NativeConnection.connect({ address: opts.address });
  // A sync job queued at its provider (fal's queue, Replicate past its wait) is polled here: the
  // provider's callback (a NOTIFY from whichever API it reached) wakes that poll, as in a worker process.
  const pollHints = await startPollHintListener(opts.databaseUrl, logger);
  const slots = opts.slots ?? config.apiEmbeddedWorkerSlots;
  const worker = await createWorker({
    connection,
    namespace: config.temporalNamespace,
    taskQueue: config.syncTaskQueue,
    knex,
    ...generationDepsFromConfig(config, knex, logger, opts.providerAdapters),
    pollHints: pollHints.hints,
    workflowTaskSlots: slots,
    cachedWorkflows: slots,
    // Its tasks come eagerly, with the API's starts; its polls only pick up what waits on the queue
    // (a start that found no free slot), and each open poll holds a slot eager starts cannot use.
    workflowTaskPollers: SYNC_WORKER_POLLERS,
    // Bundled in a child process, as the worker process does: bundling is slow and memory-hungry.
    workflowBundle: opts.workflowBundle ?? (await bundleWorkflowsInChildProcess(undefined, { traced: opts.tracing !== undefined })),
    ...(opts.tracing && { tracing: opts.tracing }),
  });
  const running = worker.run().catch((err: unknown) => {
    // The API keeps serving: its sync starts then go to the worker processes through the queue.
    logger.error('embedded sync worker stopped', describeError(err));
  });
  const client = new Client({ connection, namespace: config.temporalNamespace, ...(opts.tracing && { interceptors: opts.tracing.clientInterceptors() }) });
  logger.info('embedded sync worker polling', { task_queue: config.syncTaskQueue, slots });
  return {
    client,
    taskQueue: config.syncTaskQueue,
    sdkCoreMetricsAddress,
    async stop() {
      if (worker.getState() === 'RUNNING') worker.shutdown();
      await running;
      await pollHints.close();
      await connection.close();
      await knex.destroy();
    },
  };
}
