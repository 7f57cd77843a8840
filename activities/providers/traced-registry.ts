import { SpanKind, SpanStatusCode, type Tracer } from '@opentelemetry/api';
import { PROVIDER_CALL_SPAN, SPAN_ATTRIBUTES } from '../../observability/span-attributes';
import type { ProviderRegistry } from './registry';
import type { ProviderAdapter, ProviderJob } from './types';

// A traced worker's provider registry (worker/create-worker.ts): the registry is the one place an
// adapter is handed out, so wrapping what it hands out gives every adapter call (submit, poll, cancel)
// a `provider.call` span, child of the activity's span, naming the generation, the provider and the
// model. It exists even when the adapter makes no HTTP call (the simulator); a real adapter's HTTP
// calls are its children. An untraced worker's registry is not wrapped at all.

type Operation = 'submit' | 'poll' | 'cancel';

export function withProviderSpans(registry: ProviderRegistry, tracer: Tracer): ProviderRegistry {
  return { ...registry, adapterFor: (route) => tracedAdapter(registry.adapterFor(route), tracer) };
}

function tracedAdapter(adapter: ProviderAdapter, tracer: Tracer): ProviderAdapter {
  const traced = <T>(operation: Operation, job: ProviderJob, call: () => Promise<T>): Promise<T> =>
    tracer.startActiveSpan(PROVIDER_CALL_SPAN, { kind: SpanKind.CLIENT, attributes: attributesOf(operation, job) }, async (span) => {
      try {
        return await call();
      } catch (err) {
        span.recordException(err instanceof Error ? err : String(err));
        span.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof Error ? err.message : String(err) });
        throw err;
      } finally {
        span.end();
      }
    });
  return {
    name: adapter.name,
    submit: (job, ctx) => traced('submit', job, () => adapter.submit(job, ctx)),
    poll: (job, providerJobId, ctx) => traced('poll', job, () => adapter.poll(job, providerJobId, ctx)),
    cancel: (job, providerJobId) => traced('cancel', job, () => adapter.cancel(job, providerJobId)),
  };
}

/** Ids, names and the operation: never the prompt, the parameters or the credentials. */
function attributesOf(operation: Operation, job: ProviderJob) {
  return {
    [SPAN_ATTRIBUTES.generationId]: job.generationId,
    [SPAN_ATTRIBUTES.model]: job.model.slug,
    [SPAN_ATTRIBUTES.modality]: job.model.modality,
    [SPAN_ATTRIBUTES.provider]: job.route.provider,
    [SPAN_ATTRIBUTES.providerModel]: job.route.model,
    [SPAN_ATTRIBUTES.providerOperation]: operation,
  };
}
