import { Client, Connection } from '@temporalio/client';
import { DefaultLogger, NativeConnection, Runtime, makeTelemetryFilterString, type WorkerOptions } from '@temporalio/worker';
import { createKnex } from '../db/knex';
import { requireSetting, type Config } from '../lib/config';
import { describeError, type Logger } from '../lib/logger';
import { createStorage } from '../storage';
import { providerCallbackUrl } from '../lib/callback-token';
import { createWorker } from './create-worker';
import { ensureReconcilerSchedule } from './reconciler-schedule';

let runtimeInstalled = false;

/** The SDK's own log lines (WARN and up), as our JSON lines. */
function installSdkLogger(logger: Logger) {
  const sdkLogger = new DefaultLogger('WARN', (entry) => {
    const { error, taskToken: _token, ...meta } = (entry.meta ?? {}) as Record<string, unknown>;
    const fields = { ...meta, sdk: true, ...(error !== undefined && describeError(error)) };
    if (entry.level === 'ERROR') logger.error(entry.message, fields);
    else logger.warn(entry.message, fields);
  });
  Runtime.install({
    logger: sdkLogger,
    // Core (Rust) logs are forwarded to the same logger, so they are JSON lines too.
    telemetryOptions: { logging: { filter: makeTelemetryFilterString({ core: 'WARN' }), forward: {} } },
  });
}

/** Connects, builds the worker and runs it until `stop()`; resolves once it is polling. */
export async function startWorker(
  config: Config,
  logger: Logger,
  opts: { workflowBundle?: WorkerOptions['workflowBundle'] } = {},
): Promise<{ stop(): Promise<void>; done: Promise<void> }> {
  if (!runtimeInstalled) {
    installSdkLogger(logger);
    runtimeInstalled = true;
  }
  const databaseUrl = requireSetting(config.databaseUrl, 'DATABASE_URL', 'activities keep their records in Postgres');
  const temporalAddress = requireSetting(config.temporalAddress, 'TEMPORAL_ADDRESS', 'the worker polls Temporal');
  const knex = createKnex(databaseUrl);
  const connection = await NativeConnection.connect({ address: temporalAddress });
  const clientConnection = await Connection.connect({ address: temporalAddress });
  const client = new Client({ connection: clientConnection, namespace: config.temporalNamespace });
  await ensureReconcilerSchedule(client, config.taskQueue, logger);
  const worker = await createWorker({
    connection,
    namespace: config.temporalNamespace,
    taskQueue: config.taskQueue,
    knex,
    storage: createStorage(config),
    providerMode: config.providerMode,
    simulatorAsyncLatencyMs: config.simulatorAsyncLatencyMs,
    workflowTaskSlots: config.workerWorkflowTaskSlots,
    ...(config.urlSigningSecret && {
      callbackUrlFor: (id: string, expiresAt: Date) => providerCallbackUrl(config.publicBaseUrl, config.urlSigningSecret!, id, expiresAt),
    }),
    workflowBundle: opts.workflowBundle,
    temporal: client,
  });
  const done = worker.run().finally(async () => {
    await connection.close();
    await clientConnection.close();
    await knex.destroy();
  });
  logger.info('worker polling', { task_queue: config.taskQueue, namespace: config.temporalNamespace });
  return {
    done,
    async stop() {
      if (worker.getState() === 'RUNNING') worker.shutdown();
      await done;
    },
  };
}
