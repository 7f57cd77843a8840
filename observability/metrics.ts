import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

// Every metric this service exports, in one place: the API, the activities and the worker import
// these objects; the Grafana dashboards and alert rules under ops/ name only metrics defined here
// (or the Temporal SDK's own `temporal_*` metrics), and a test holds them to it.
//
// Label values are bounded, never ids (docs/operations.md, "Metrics"): `route` is a route
// template from api/route-table.ts (or `unmatched`), `model` a catalog model id, `provider` one of
// domain/providers.ts, `error_code` a documented error code, every other label a fixed enum
// documented beside its metric. A process exports what it did; Prometheus sums the processes.

export const metricsRegistry = new Registry();
collectDefaultMetrics({ register: metricsRegistry });

const PREFIX = 'generation_service_';

// Seconds, from a sub-millisecond API answer to a long video render.
const REQUEST_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const JOB_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800];

function counter<L extends string>(name: string, help: string, labelNames: readonly L[]) {
  return new Counter<L>({ name: PREFIX + name, help, labelNames, registers: [metricsRegistry] });
}

function histogram<L extends string>(name: string, help: string, labelNames: readonly L[], buckets: number[]) {
  return new Histogram<L>({ name: PREFIX + name, help, labelNames, buckets, registers: [metricsRegistry] });
}

export const metrics = {
  // ── API ──
  /** Every answered request. status: the HTTP status; error_code: the documented code, '' on success. */
  httpRequests: counter('http_requests_total', 'HTTP requests answered, by route template, method, status and error code.', ['route', 'method', 'status', 'error_code']),
  httpRequestDuration: histogram('http_request_duration_seconds', 'Time to answer an HTTP request.', ['route', 'method', 'status'], REQUEST_BUCKETS),
  /**
   * Every admission verdict on a creation request. kind: generation | comparison.
   * outcome: admitted | insufficient_credits | budget_exceeded | organization_paused | plan_upgrade_required.
   */
  admissions: counter('admissions_total', 'Admission verdicts on creation requests, by kind, modality and outcome.', ['kind', 'modality', 'outcome']),
  /**
   * Each sync generation workflow the API starts on the sync queue (API_EMBEDDED_WORKER). kind: generation.
   * eager: true when Temporal handed its first task straight back to the API's own worker, false when
   * it went through the queue (no free slot in the API, an attach to a running workflow).
   */
  workflowStarts: counter('workflow_starts_total', 'Sync generation workflows the API started on the sync queue, by whether the start was eager.', ['kind', 'eager']),
  /** Requests refused 429 rate_limited. limit: which limit refused it (api/guards). */
  rateLimitRefusals: counter('rate_limit_refusals_total', 'Requests refused with 429 rate_limited, by which limit refused them.', ['limit']),
  /** 503 service_unavailable answers because a dependency was unreachable. dependency: postgres | temporal. */
  dependencyUnavailable: counter('dependency_unavailable_total', 'Requests answered 503 because Postgres or Temporal was unreachable.', ['dependency']),

  // ── Generations (activities) ──
  /** Each generation reaching a terminal status once. status: succeeded | failed | canceled. */
  generationsFinished: counter('generations_finished_total', 'Generations that reached a terminal status, by modality, model, provider and status.', [
    'modality',
    'model',
    'provider',
    'status',
  ]),
  /** From creation to the first provider call. */
  generationQueueWait: histogram('generation_queue_wait_seconds', 'Time from a generation’s creation to its first provider call.', ['modality'], JOB_BUCKETS),
  /** From the provider call's start to its result (every attempt of the job's final provider). */
  generationProviderTime: histogram('generation_provider_seconds', 'Time a generation spent waiting on its provider.', ['modality', 'provider'], JOB_BUCKETS),
  /** Fetching, checking and storing the outputs. */
  generationIngestTime: histogram('generation_ingest_seconds', 'Time to fetch, check and store a generation’s outputs.', ['modality'], JOB_BUCKETS),
  /** From creation to the terminal status. */
  generationDuration: histogram('generation_duration_seconds', 'Time from a generation’s creation to its terminal status.', ['modality', 'status'], JOB_BUCKETS),
  /** One provider call. outcome: succeeded | failed | timed_out | canceled. */
  providerAttempts: counter('provider_attempts_total', 'Provider calls, by provider, modality and outcome.', ['provider', 'modality', 'outcome']),
  /** A job moving from one provider to the next after a failure the next may not share. */
  providerFallbacks: counter('provider_fallbacks_total', 'Fallbacks from one provider to another, by modality.', ['modality', 'from_provider', 'to_provider']),

  // ── Money (counted when the ledger row is written, never on a retried call that wrote nothing) ──
  creditsReserved: counter('credits_reserved_total', 'Credits reserved, by modality and environment (live | test).', ['modality', 'environment']),
  creditsCharged: counter('credits_charged_total', 'Credits captured from reservations, by modality and environment.', ['modality', 'environment']),
  creditsRefunded: counter('credits_refunded_total', 'Credits released back to wallets, by modality and environment.', ['modality', 'environment']),

  // ── Webhooks ──
  /** One POST to a receiver. outcome: delivered | http_error | timeout | network_error | refused (SSRF guard). */
  webhookAttempts: counter('webhook_attempts_total', 'Webhook delivery attempts, by outcome.', ['outcome']),
  /** A delivery ending. outcome: delivered | exhausted. */
  webhookDeliveries: counter('webhook_deliveries_total', 'Webhook deliveries that ended, by outcome.', ['outcome']),
  /** From the event's creation to the receiver's 2xx. */
  webhookDeliveryLatency: histogram('webhook_delivery_latency_seconds', 'Time from an event’s creation to its delivery.', [], JOB_BUCKETS),

  /** Rows the retention sweep deleted (EVENT_RETENTION_DAYS). table: events | webhook_deliveries | webhook_attempts. */
  eventRowsDeleted: counter('event_retention_deleted_rows_total', 'Rows deleted by the event retention sweep, by table.', ['table']),
  /** Output files removed (output retention). reason: expired (the sweep) | requested (DELETE /v1/generations/{id}/outputs). */
  outputFilesDeleted: counter('output_retention_deleted_files_total', 'Output files removed from storage, by reason.', ['reason']),

  // ── Repairs ──
  /** The reconciler finding and settling a job nothing else would have. kind: what it repaired. */
  reconcilerRepairs: counter('reconciler_repairs_total', 'Repairs made by the reconciler, by kind.', ['kind']),
};

// The series the alerts watch for "any at all" exist at 0 from the start: a counter series is
// otherwise born at its first increment, which rate() cannot see, so a short outage that made a
// handful of 503s would never alert (ops/prometheus/alerts.yml).
for (const dependency of ['postgres', 'temporal'] as const) metrics.dependencyUnavailable.inc({ dependency }, 0);
for (const outcome of ['delivered', 'exhausted'] as const) metrics.webhookDeliveries.inc({ outcome }, 0);
for (const kind of ['stranded_generation', 'stranded_comparison'] as const) metrics.reconcilerRepairs.inc({ kind }, 0);
