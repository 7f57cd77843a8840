// The names of the attributes our own code puts on trace spans, and which of a workflow's input
// fields become attributes. One list, so the API, the workflow interceptors (bundled into the
// workflow sandbox: this module is pure and imports nothing), the activities and docs/operations.md
// ("Traces") agree. Ids, enums and catalog names only: never a secret, never prompt text.

export const SPAN_ATTRIBUTES = {
  /** The request id of api/middleware/request-id.ts (X-Request-Id), on the HTTP server span. */
  requestId: 'request.id',
  generationId: 'generation.id',
  comparisonId: 'comparison.id',
  organizationId: 'organization.id',
  /** live | test */
  environment: 'generation.environment',
  /** The catalog model's slug (`flux-schnell`). */
  model: 'generation.model',
  modality: 'generation.modality',
  /** On `provider.call`: the provider that served this call (the simulator, fal, replicate, ...). */
  provider: 'provider.name',
  /** On `provider.call`: the provider's own model id (`fal-ai/flux/schnell`). */
  providerModel: 'provider.model',
  /** On `provider.call`: submit | poll | cancel. */
  providerOperation: 'provider.operation',
} as const;

/** The span around each call of a provider adapter (activities/providers/traced-registry.ts). */
export const PROVIDER_CALL_SPAN = 'provider.call';

/** Workflow input fields copied onto the workflow's and its activities' spans, and their names there. */
const INPUT_FIELDS = {
  generationId: SPAN_ATTRIBUTES.generationId,
  comparisonId: SPAN_ATTRIBUTES.comparisonId,
  organizationId: SPAN_ATTRIBUTES.organizationId,
  environment: SPAN_ATTRIBUTES.environment,
  model: SPAN_ATTRIBUTES.model,
  modality: SPAN_ATTRIBUTES.modality,
} as const;

/** A workflow input's identifying fields as span attributes (an empty record for inputs without them). */
export function spanAttributesOfInput(input: unknown): Record<string, string> {
  const attributes: Record<string, string> = {};
  if (typeof input !== 'object' || input === null) return attributes;
  for (const [field, name] of Object.entries(INPUT_FIELDS)) {
    const value = (input as Record<string, unknown>)[field];
    if (typeof value === 'string') attributes[name] = value;
  }
  return attributes;
}

/**
 * The Temporal header that carries a workflow's span attributes to the activities it schedules
 * (observability/workflow-interceptors.ts writes it, the worker's activity interceptor reads it), so
 * every activity span names its generation whatever the activity's arguments are.
 */
export const SPAN_ATTRIBUTES_HEADER = 'generation-span-attributes';
