import { Client, Connection } from '@temporalio/client';
import { DefaultLogger, NativeConnection, Runtime, makeTelemetryFilterString, type WorkerOptions } from '@temporalio/worker';
import { createWebhookRelay } from '../activities/webhooks/relay';
import { webhookDepsFromConfig, type WebhookDeps } from '../config/webhook-settings';
import { createKnex } from '../db/knex';
import { createRepos } from '../db/repos';
import { providerSecretsKeys, requireSetting, type Config } from '../config';
import { secretBoxOf } from '../lib/secret-box';
import { describeError, type Logger } from '../lib/logger';
import type { Tracing } from '../observability/tracing';
import { createStorage } from '../storage';
import { providerCallbackUrl } from '../domain/callback-token';
import { bundleWorkflowsInChildProcess } from './bundle-workflows';
import { createWorker } from './create-worker';
import { providerRegistryFromConfig } from './provider-registry';
import { ensureAnomalyDetectorSchedule } from './anomaly-detector-schedule';
import { startEventRelay } from './event-relay';
import { ensureReconcilerSchedule } from './reconciler-schedule';
import { ensureWebhookRelaySchedule } from './webhook-relay-schedule';
import { startPollHintListener } from './poll-hint-listener';
import { startSecretsReseal } from './reseal-secrets';
import { freePort } from '../lib/free-port';
import { fetchCoreMetrics, startMetricsServer } from '../observability/metrics-server';

let runtimeInstalled = false;
/** Where the SDK core's Prometheus exporter listens (loopback only), when this process installed one. */
let coreMetricsAddress: string | undefined;

/**
 * The SDK's runtime, once per process: its own log lines (WARN and up) as our JSON lines, and, with
 * metrics on, the core's Prometheus exporter on a loopback port, whose text the worker's /metrics
 * appends to ours (one scrape target per process).
 */
function installRuntime(logger: Logger, coreMetrics: string | undefined) {
  const sdkLogger = new DefaultLogger('WARN', (entry) => {
    const { error, taskToken: _token, ...meta } = (entry.meta ?? {}) as Record<string, unknown>;
    const fields = { ...meta, sdk: true, ...(error !== undefined && describeError(error)) };
    if (entry.level === 'ERROR') logger.error(entry.message, fields);
    else logger.warn(entry.message, fields);
  });
  Runtime.install({
    logger: sdkLogger,
    // Core (Rust) logs are forwarded to the same logger, so they are JSON lines too.
    telemetryOptions: {
      logging: { filter: makeTelemetryFilterString({ core: 'WARN' }), forward: {} },
      ...(coreMetrics && { metrics: { prometheus: { bindAddress: coreMetrics, useSecondsForDurations: true, countersTotalSuffix: true } } }),
    },
  });
}

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
  if (!runtimeInstalled) {
    coreMetricsAddress = config.workerMetricsPort === 0 ? undefined : `127.0.0.1:${await freePort()}`;
    installRuntime(logger, coreMetricsAddress);
    runtimeInstalled = true;
  }
  const databaseUrl = requireSetting(config.databaseUrl, 'DATABASE_URL', 'activities keep their records in Postgres');
  const temporalAddress = requireSetting(config.temporalAddress, 'TEMPORAL_ADDRESS', 'the worker polls Temporal');
  const knex = createKnex(databaseUrl);
  const connection = await NativeConnection.connect({ address: temporalAddress });
  const clientConnection = await Connection.connect({ address: temporalAddress });
  const client = new Client({ connection: clientConnection, namespace: config.temporalNamespace, ...(opts.tracing && { interceptors: opts.tracing.clientInterceptors() }) });
  await ensureReconcilerSchedule(client, config.taskQueue, logger);
  await ensureAnomalyDetectorSchedule(client, config.taskQueue, logger);
  const webhooks = webhookDeps(config, logger);
  if (webhooks) await ensureWebhookRelaySchedule(client, config.taskQueue, logger);
  const pollHints = await startPollHintListener(databaseUrl, logger);
  // One bundle for both workers: bundling is the slow, memory-hungry part of a worker's start.
  const workflowBundle = opts.workflowBundle ?? (await bundleWorkflowsInChildProcess(opts.workflowsPath, { traced: opts.tracing !== undefined }));
  const shared = {
    connection,
    namespace: config.temporalNamespace,
    knex,
    storage: createStorage(config),
    providers: providerRegistryFromConfig(config, createRepos(knex), logger, opts.providerAdapters),
    allowPrivateOutputUrls: config.allowPrivateInputUrls,
    ...(config.urlSigningSecret && {
      callbackUrlFor: (id: string, expiresAt: Date) => providerCallbackUrl(config.publicBaseUrl, config.urlSigningSecret!, id, expiresAt),
    }),
    pollHints: pollHints.hints,
    workflowBundle,
    cachedWorkflows: config.workerCachedWorkflows,
    temporal: client,
    ...(webhooks && { webhooks }),
    anomaly: { factor: config.anomalyFactor, floorCredits: config.anomalyFloorCredits },
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
  const eventRelay = webhooks
    ? await startEventRelay(databaseUrl, createWebhookRelay({ repos: createRepos(knex), temporal: client, settings: webhooks.relay }), logger)
    : undefined;
  // After a secrets key rotation, moves every sealed secret to the newest key (docs/operations.md).
  const providerBox = secretBoxOf(providerSecretsKeys(config));
  const reseal = startSecretsReseal(knex, { ...(webhooks && { webhooks: webhooks.secretBox }), ...(providerBox && { providers: providerBox }) }, logger);
  const core = coreMetricsAddress;
  const metrics = config.workerMetricsPort === 0 ? undefined : await startMetricsServer({ port: config.workerMetricsPort, ...(core && { extra: () => fetchCoreMetrics(core) }) });
  const done = Promise.all([worker.run(), webhookWorker?.run()])
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
      for (const w of [worker, webhookWorker]) if (w?.getState() === 'RUNNING') w.shutdown();
      await done;
    },
  };
}

function webhookDeps(config: Config, logger: Logger): WebhookDeps | undefined {
  const deps = webhookDepsFromConfig(config);
  if (!deps) logger.warn('WEBHOOK_SECRETS_KEY is not set: this worker delivers no webhooks');
  return deps;
}
