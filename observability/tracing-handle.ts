import type { Tracer } from '@opentelemetry/api';
import type { ClientInterceptors } from '@temporalio/client';
import type { WorkerOptions } from '@temporalio/worker';

// What a traced process hands to Koa and Temporal (observability/tracing.ts starts it), in a module
// of its own so that the SDK's set-up (start-tracing.ts) and the switch that loads it share the type
// without importing each other.

/** A process's tracing, once started: what the API and the worker hand to Koa and Temporal. */
export interface Tracing {
  /** The service's own spans: the HTTP server span, `provider.call`. */
  tracer: Tracer;
  /** For a Temporal Client: starts, signals and updates carry the caller's trace context in their headers. */
  clientInterceptors(): ClientInterceptors;
  /**
   * For Worker.create: the activity interceptors (a span per activity, joined to the workflow's trace)
   * and the sink that exports the workflow sandbox's spans. The workflow interceptors themselves are
   * bundled with the workflow code (worker/bundle-workflows.ts, `traced`).
   */
  workerOptions(): Pick<WorkerOptions, 'sinks'> & { interceptors: Pick<NonNullable<WorkerOptions['interceptors']>, 'activity'> };
  /** Exports what is left and unregisters everything it installed. */
  shutdown(): Promise<void>;
}
