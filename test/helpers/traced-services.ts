import { bundleWorkflowCode, type WorkflowBundle } from '@temporalio/worker';
import { startApiServer } from '../../api/server';
import { BENCH_WORKFLOWS_PATH } from '../../bench/lib/bench-workflows';
import type { Config } from '../../config';
import { silentLogger } from '../../lib/logger';
import type { Tracing } from '../../observability/tracing';
import { BUNDLER_LOGGER, workflowCode } from '../../worker/bundle-workflows';
import { startWorker } from '../../worker/run-worker';
import { providerDoubles } from './provider-doubles';
import { stack } from './stack';

// The stack's API and worker once more, traced, for the tests of traces: the production composition
// roots (api/server.ts, worker/run-worker.ts) given a test's tracing, as the entries give them theirs,
// on the stack's database and Temporal, on a task queue of their own. The stack's own API and worker
// stay untraced, as a process without OTEL_EXPORTER_OTLP_ENDPOINT is.

let tracedBundle: Promise<WorkflowBundle> | undefined;

/** The stack's workflow code with the tracing interceptors, bundled once per run. */
export function tracedWorkflowBundle(): Promise<WorkflowBundle> {
  tracedBundle ??= bundleWorkflowCode({ ...workflowCode(BENCH_WORKFLOWS_PATH, { traced: true }), logger: BUNDLER_LOGGER });
  return tracedBundle;
}

export async function startTracedServices(tracing: Tracing, taskQueue: string): Promise<{ apiUrl: string; stop(): Promise<void> }> {
  // No webhook secrets: this worker runs no event relay, which would take the stack's outbox rows.
  // No metrics listeners: the stack's own API and worker hold those ports.
  const config: Config = { ...stack().config, taskQueue, syncTaskQueue: `${taskQueue}-sync`, webhookSecretsKey: undefined, apiMetricsPort: 0, workerMetricsPort: 0 };
  const worker = await startWorker(config, silentLogger, { workflowBundle: await tracedWorkflowBundle(), providerAdapters: providerDoubles, tracing });
  const api = await startApiServer(config, silentLogger, tracing, { workflowBundle: await tracedWorkflowBundle(), providerAdapters: providerDoubles });
  return {
    apiUrl: api.url,
    async stop() {
      await api.close();
      await worker.stop();
    },
  };
}
