import { DefaultLogger, Runtime, makeTelemetryFilterString } from '@temporalio/worker';
import type { Config } from '../config';
import { describeError, type Logger } from '../lib/logger';
import { freePort } from '../lib/free-port';

// The Temporal SDK's runtime is installed once per process, before its first NativeConnection:
// the worker process's workers and, with API_EMBEDDED_WORKER, the API's own sync worker share it
// (npm start and the test stack run both in one process).

type SdkRuntimeSettings = Pick<Config, 'workerMetricsPort' | 'apiMetricsPort'>;

let installed: Promise<string | undefined> | undefined;

/**
 * Installs the runtime once: its own log lines (WARN and up) as our JSON lines, and, with metrics
 * on, the core's Prometheus exporter on a loopback port, whose text the /metrics of the worker and
 * of an API running its own sync worker append to ours (one scrape target per process). Returns
 * that exporter's address, when there is one.
 */
export function ensureSdkRuntime(config: SdkRuntimeSettings, logger: Logger): Promise<string | undefined> {
  installed ??= install(config, logger);
  return installed;
}

async function install(config: SdkRuntimeSettings, logger: Logger): Promise<string | undefined> {
  // Whichever process installs it (a worker, an API with its own sync worker, npm start's both)
  // serves it on the /metrics it has; with every listener off, nobody would read it.
  const metricsOn = config.workerMetricsPort !== 0 || config.apiMetricsPort !== 0;
  const coreMetricsAddress = metricsOn ? `127.0.0.1:${await freePort()}` : undefined;
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
      ...(coreMetricsAddress && { metrics: { prometheus: { bindAddress: coreMetricsAddress, useSecondsForDurations: true, countersTotalSuffix: true } } }),
    },
  });
  return coreMetricsAddress;
}
