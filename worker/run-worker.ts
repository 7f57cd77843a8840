import { Client, Connection } from '@temporalio/client';
import { NativeConnection, type WorkerOptions } from '@temporalio/worker';
import { createWebhookRelay } from '../activities/webhooks/relay';
import { webhookDepsFromConfig, type WebhookDeps } from '../config/webhook-settings';
import { createKnex } from '../db/knex';
import { createRepos } from '../db/repos';
import { providerSecretsKeys, requireSetting, type Config } from '../config';
import { secretBoxOf } from '../lib/secret-box';
import type { Logger } from '../lib/logger';
import type { Tracing } from '../observability/tracing';
import { bundleWorkflowsInChildProcess } from './bundle-workflows';
import { createWorker } from './create-worker';
import type { providerRegistryFromConfig } from './provider-registry';
import { generationDepsFromConfig } from './generation-deps';
import { ensureSdkRuntime } from './sdk-runtime';
import { ensureAnomalyDetectorSchedule } from './anomaly-detector-schedule';
import { ensureEventRetentionSchedule } from './event-retention-schedule';
import { ensureOutputRetentionSchedule } from './output-retention-schedule';
import { startEventRelay } from './event-relay';
import { ensureReconcilerSchedule } from './reconciler-schedule';
import { ensureWebhookRelaySchedule } from './webhook-relay-schedule';
import { startPollHintListener } from './poll-hint-listener';
import { startSecretsReseal } from './reseal-secrets';
import { startMetricsServer } from '../observability/metrics-server';

/** Connects, builds the worker and runs it until `stop()`; resolves once it is polling. */
export async function startWorker(
  config: Config,
  logger: Logger,
  opts: {
    workflowBundle?: WorkerOptions['workflowBundle'];
    /** Without a workflowBundle: the workflow code to bundle, when not the production workflows (bench and test workers). */
    workflowsPath?: string;
    /** Replaces the real providers' adapters (worker/provider-registry.ts): a test stack's stand-ins. */
    providerAdapters?: Parameters<typeof providerRegistryFromConfig>[3];
    /** The process's tracing (worker/main.ts): workflows, activities and provider calls get spans. */
    tracing?: Tracing;
  } = {},
): Promise<{ stop(): Promise<void>; done: Promise<void>; metricsUrl: string | undefined }> {
  const coreMetricsAddress = await ensureSdkRuntime(config, logger);
  const databaseUrl = requireSetting(config.databaseUrl, 'DATABASE_URL', 'activities keep their records in Postgres');
  const temporalAddress = requireSetting(config.temporalAddress, 'TEMPORAL_ADDRESS', 'the worker polls Temporal');
  const knex = createKnex(databaseUrl);
  const connection = await NativeConnection.connect({ address: temporalAddress });
  const clientConnection = await Connection.connect({ address: temporalAddress });
  const client = new Client({ connection: clientConnection, namespace: config.temporalNamespace, ...(opts.tracing && { interceptors: opts.tracing.clientInterceptors() }) });
  await ensureReconcilerSchedule(client, config.taskQueue, logger);
  await ensureAnomalyDetectorSchedule(client, config.taskQueue, logger);
  await ensureEventRetentionSchedule(client, config.taskQueue, logger);
  await ensureOutputRetentionSchedule(client, config.taskQueue, logger);
  const webhooks = webhookDeps(config, logger);
  if (webhooks) await ensureWebhookRelaySchedule(client, config.taskQueue, logger);
  const pollHints = await startPollHintListener(databaseUrl, logger);
  // One bundle for both workers: bundling is the slow, memory-hungry part of a worker's start.
  const workflowBundle = opts.workflowBundle ?? (await bundleWorkflowsInChildProcess(opts.workflowsPath, { traced: opts.tracing !== undefined }));
  const shared = {
    connection,
    namespace: config.temporalNamespace,
    knex,
    ...generationDepsFromConfig(config, knex, logger, opts.providerAdapters),
    pollHints: pollHints.hints,
    workflowBundle,
    cachedWorkflows: config.workerCachedWorkflows,
    temporal: client,
    ...(webhooks && { webhooks }),
    anomaly: { factor: config.anomalyFactor, floorCredits: config.anomalyFloorCredits },
    eventRetentionDays: config.eventRetentionDays,
    ...(opts.tracing && { tracing: opts.tracing }),
  };
  const worker = await createWorker({ ...shared, taskQueue: config.taskQueue, workflowTaskSlots: config.workerWorkflowTaskSlots, activitySlots: config.workerActivitySlots });
  // Webhook deliveries poll a queue of their own, so a slow receiver never holds up a generation.
  // An attempt is a local activity, which holds its workflow task slot while the receiver answers:
  // attempts mostly wait on receivers, so many run at once, and receivers that hang until the
  // timeout hold a few of the slots, not all (WEBHOOK_CONCURRENT_ATTEMPTS).
  const webhookWorker = webhooks
    ? await createWorker({
        ...shared,
        taskQueue: config.webhookTaskQueue,
        workflowTaskSlots: config.webhookConcurrentAttempts,
        activitySlots: config.webhookConcurrentAttempts,
      })
    : undefined;
  // Sync generations started eagerly by an API (API_EMBEDDED_WORKER) run on the API's own worker;
  // when its slots are full, the API is gone or it has none, they wait on this queue for this one.
  const syncWorker = await createWorker({ ...shared, taskQueue: config.syncTaskQueue, workflowTaskSlots: config.workerWorkflowTaskSlots });
  const eventRelay = webhooks
    ? await startEventRelay(databaseUrl, createWebhookRelay({ repos: createRepos(knex), temporal: client, settings: webhooks.relay }), logger)
    : undefined;
  // After a secrets key rotation, moves every sealed secret to the newest key (docs/operations.md).
  const providerBox = secretBoxOf(providerSecretsKeys(config));
  const reseal = startSecretsReseal(knex, { ...(webhooks && { webhooks: webhooks.secretBox }), ...(providerBox && { providers: providerBox }) }, logger);
  const metrics = config.workerMetricsPort === 0 ? undefined : await startMetricsServer({ port: config.workerMetricsPort, sdkCoreMetricsAddress: coreMetricsAddress });
  const done = Promise.all([worker.run(), syncWorker.run(), webhookWorker?.run()])
    .then(() => undefined)
    .finally(async () => {
      await metrics?.close();
      await reseal.stop();
      await eventRelay?.close();
      await pollHints.close();
      await connection.close();
      await clientConnection.close();
      await knex.destroy();
    });
  logger.info('worker polling', {
    task_queue: config.taskQueue,
    sync_task_queue: config.syncTaskQueue,
    webhook_task_queue: webhooks ? config.webhookTaskQueue : null,
    namespace: config.temporalNamespace,
    metrics_url: metrics?.url ?? null,
  });
  return {
    done,
    metricsUrl: metrics?.url,
    async stop() {
      await reseal.stop();
      await eventRelay?.close();
      await pollHints.close();
      for (const w of [worker, syncWorker, webhookWorker]) if (w?.getState() === 'RUNNING') w.shutdown();
      await done;
    },
  };
}

function webhookDeps(config: Config, logger: Logger): WebhookDeps | undefined {
  const deps = webhookDepsFromConfig(config);
  if (!deps) logger.warn('WEBHOOK_SECRETS_KEY is not set: this worker delivers no webhooks');
  return deps;
}
