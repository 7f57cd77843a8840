import { DiagLogLevel, context, diag, propagation, trace } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { Resource, envDetectorSync } from '@opentelemetry/resources';
import { BatchSpanProcessor, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';
import { OpenTelemetryWorkflowClientInterceptor, OpenTelemetryActivityInboundInterceptor, OpenTelemetryActivityOutboundInterceptor } from '@temporalio/interceptors-opentelemetry';
import { spanAttributesFromHeader } from './activity-span-attributes';
import { dropUrlQueries } from './url-redaction';
import { workflowSpanSink } from './workflow-span-sink';
import type { Logger } from '../lib/logger';
import type { Tracing } from './tracing-handle';

// The OpenTelemetry SDK, loaded only when a process traces (observability/tracing.ts). One tracer
// provider per process, registered globally with W3C trace context (the Temporal interceptors
// propagate through the global propagator and context manager), and the Temporal pieces built on it.

export interface TracingOptions {
  serviceName: string;
  /**
   * Where finished spans go. By default, batches to the OTLP/HTTP (JSON) exporter, which reads
   * OTEL_EXPORTER_OTLP_* itself (production); a test's in-memory exporter otherwise.
   */
  spanProcessor?: SpanProcessor;
  /**
   * Patch http, undici (fetch) and pg to trace outgoing calls and queries. They patch modules as
   * the process loads them, so only entries that start tracing before loading anything else ask for
   * them (api/main.ts, worker/main.ts); a test process has loaded them all already.
   */
  instrumentModules: boolean;
  /** Where the SDK's own warnings and errors go (an export that failed: a collector down, a 4xx). */
  logger?: Logger;
}

export function startTracing(opts: TracingOptions): Tracing {
  if (opts.logger) routeDiagnostics(opts.logger);
  const spanProcessor = opts.spanProcessor ?? new BatchSpanProcessor(new OTLPTraceExporter());
  // OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES (the env detector) win over our default name.
  const resource = Resource.default()
    .merge(new Resource({ [ATTR_SERVICE_NAME]: opts.serviceName }))
    .merge(envDetectorSync.detect());
  // The sampler comes from OTEL_TRACES_SAMPLER / OTEL_TRACES_SAMPLER_ARG (parent-based always-on by default).
  const provider = new NodeTracerProvider({ resource, mergeResourceWithDefaults: false, spanProcessors: [spanProcessor] });
  // W3C trace context only, no baggage: nothing a client sends in `baggage` is passed on to providers.
  provider.register({ propagator: new W3CTraceContextPropagator() });
  const unregister = opts.instrumentModules ? registerInstrumentations({ tracerProvider: provider, instrumentations: moduleInstrumentations() }) : undefined;
  const tracer = provider.getTracer('generation-service');
  return {
    tracer,
    clientInterceptors: () => ({ workflow: [new OpenTelemetryWorkflowClientInterceptor({ tracer })] }),
    workerOptions: () => ({
      interceptors: {
        activity: [
          (ctx) => ({ inbound: new OpenTelemetryActivityInboundInterceptor(ctx, { tracer }), outbound: new OpenTelemetryActivityOutboundInterceptor(ctx) }),
          spanAttributesFromHeader,
        ],
      },
      // The workflow sandbox's spans (observability/workflow-interceptors.ts) leave it through this sink.
      sinks: { exporter: workflowSpanSink(spanProcessor, resource) },
    }),
    async shutdown() {
      unregister?.();
      await provider.shutdown();
      trace.disable();
      propagation.disable();
      context.disable();
      diag.disable();
    },
  };
}

function moduleInstrumentations() {
  return [
    // Incoming requests get their server span from api/middleware/trace-requests.ts (with the request
    // id); this one traces outgoing calls (S3, providers' SDKs on node:http), inside a trace only.
    new HttpInstrumentation({ ignoreIncomingRequestHook: () => true, requireParentforOutgoingSpans: true, requestHook: dropUrlQueries }),
    new UndiciInstrumentation({ requireParentforSpans: true, requestHook: dropUrlQueries }),
    // Queries inside a trace only: the pollers and listeners that run outside one would each be a trace.
    new PgInstrumentation({ requireParentSpan: true }),
    // No koa instrumentation: @opentelemetry/instrumentation-koa of this SDK line (0.47) patches koa 2
    // only, and the API runs koa 3. The server span names the matched route itself.
  ];
}

/** The SDK reports through `diag`, silent unless given a logger: its warnings and errors become our JSON lines. */
function routeDiagnostics(logger: Logger): void {
  const line =
    (level: 'warn' | 'error') =>
    (message: string, ...args: unknown[]) =>
      logger[level]('opentelemetry: ' + message, args.length > 0 ? { details: args.map(String) } : {});
  const quiet = () => undefined;
  diag.setLogger({ error: line('error'), warn: line('warn'), info: quiet, debug: quiet, verbose: quiet }, { logLevel: DiagLogLevel.WARN, suppressOverrideMessage: true });
}
