import type { Logger } from '../lib/logger';
import type { Tracing } from './tracing-handle';

export type { Tracing };

// Whether a process traces, decided once at its start (docs/operations.md, "Traces"). Off unless
// OTEL_EXPORTER_OTLP_ENDPOINT is set: then no OpenTelemetry SDK is loaded, no module patched, no
// interceptor installed, and the code that would trace costs one `if`. This module is what the
// entries and the composition roots import; it loads the SDK (observability/start-tracing.ts) only
// when tracing is on.

/** service.name of each process; OTEL_SERVICE_NAME overrides it. */
export const SERVICE_NAMES = { api: 'generation-service-api', worker: 'generation-service-worker' } as const;

/**
 * Starts tracing to the OTLP/HTTP endpoint of the standard OTEL_* variables when `enabled`
 * (config/index.ts, `otlpTracing`); undefined otherwise. Call it before the process loads http
 * and pg: the instrumentations patch those modules as they load.
 */
export function startTracingIfEnabled(enabled: boolean, serviceName: string, logger: Logger): Tracing | undefined {
  if (!enabled) return undefined;
  const { startTracing } = require('./start-tracing') as typeof import('./start-tracing');
  return startTracing({ serviceName, instrumentModules: true, logger });
}
