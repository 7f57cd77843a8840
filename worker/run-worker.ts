import { NativeConnection, Runtime, makeTelemetryFilterString, type WorkerOptions } from '@temporalio/worker';
import { createKnex } from '../db/knex';
import { requireSetting, type Config } from '../lib/config';
import type { Logger } from '../lib/logger';
import { createStorage } from '../storage';
import { createWorker } from './create-worker';

let runtimeInstalled = false;

/** Connects, builds the worker and runs it until `stop()`; resolves once it is polling. */
export async function startWorker(
  config: Config,
  logger: Logger,
  opts: { workflowBundle?: WorkerOptions['workflowBundle'] } = {},
): Promise<{ stop(): Promise<void>; done: Promise<void> }> {
  if (!runtimeInstalled) {
    Runtime.install({ telemetryOptions: { logging: { filter: makeTelemetryFilterString({ core: 'WARN' }) } } });
    runtimeInstalled = true;
  }
  const databaseUrl = requireSetting(config.databaseUrl, 'DATABASE_URL', 'activities keep their records in Postgres');
  const temporalAddress = requireSetting(config.temporalAddress, 'TEMPORAL_ADDRESS', 'the worker polls Temporal');
  const knex = createKnex(databaseUrl);
  const connection = await NativeConnection.connect({ address: temporalAddress });
  const worker = await createWorker({
    connection,
    namespace: config.temporalNamespace,
    taskQueue: config.taskQueue,
    knex,
    storage: createStorage(config),
    providerMode: config.providerMode,
    workflowBundle: opts.workflowBundle,
  });
  const done = worker.run().finally(async () => {
    await connection.close();
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
