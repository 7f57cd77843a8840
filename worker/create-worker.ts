import type { Client } from '@temporalio/client';
import { type NativeConnection, Worker, type WorkerOptions } from '@temporalio/worker';
import type { Knex } from 'knex';
import { createActivities } from '../activities';
import type { WebhookDeps } from '../config/webhook-settings';
import type { PollHints } from '../activities/poll-hints';
import type { ProviderRegistry } from '../activities/providers/registry';
import { createRepos } from '../db/repos';
import type { AnomalySettings } from '../domain/spending-anomaly';
import type { Storage } from '../storage/types';
import type { Tracing } from '../observability/tracing';
import { withProviderSpans } from '../activities/providers/traced-registry';
import { workflowCode } from './bundle-workflows';

export interface WorkerDeps {
  connection: NativeConnection;
  namespace: string;
  taskQueue: string;
  knex: Knex;
  storage: Storage;
  /** Adapters, routes and credentials (worker/provider-registry.ts). */
  providers: ProviderRegistry;
  /** ALLOW_PRIVATE_INPUT_URLS: provider output URLs on private addresses too (tests, development). */
  allowPrivateOutputUrls?: boolean;
  /** Workflow tasks run at once, and so sync jobs run at once (config/index.ts); the SDK's default is 40. */
  workflowTaskSlots?: number;
  /**
   * At most this many workflow task polls at once instead of autoscaling pollers. Each open poll
   * holds a task slot while it waits, which an eager start then cannot have (worker/sync-worker.ts).
   */
  workflowTaskPollers?: number;
  /** Activities run at once; the SDK's default is 100. Webhook attempts wait on receivers, not on CPU. */
  activitySlots?: number;
  /** Workflows kept in memory between tasks (at least workflowTaskSlots); see WORKER_CACHED_WORKFLOWS. */
  cachedWorkflows?: number;
  /** Provider callbacks reach the API here; without it, async jobs are only polled. */
  callbackUrlFor?: (generationId: string, expiresAt: Date) => string;
  /** The callbacks' hints, which wake a job's poll (worker/poll-hint-listener.ts). */
  pollHints?: PollHints;
  /** For the reconciler's activities, which ask Temporal about workflows. */
  temporal?: Client;
  /** Webhook signing and delivery settings; without them webhook activities fail, saying so. */
  webhooks?: WebhookDeps;
  /** The anomaly detector's factor and floor (ANOMALY_FACTOR, ANOMALY_FLOOR_CREDITS). */
  anomaly?: AnomalySettings;
  /** EVENT_RETENTION_DAYS, for the retention sweep's activity. */
  eventRetentionDays?: number;
  /**
   * A pre-built bundle (tests build one per run); otherwise the worker bundles workflows/ itself. A
   * traced worker's bundle must have the tracing interceptors (workflowCode(path, { traced: true })).
   */
  workflowBundle?: WorkerOptions['workflowBundle'];
  /** The process's tracing: activity spans, the workflow sandbox's spans, a span per provider call. */
  tracing?: Tracing;
}

const DEFAULT_WORKFLOW_TASK_SLOTS = 200;
const DEFAULT_CACHED_WORKFLOWS = 250;

export async function createWorker(deps: WorkerDeps): Promise<Worker> {
  const activities = createActivities({
    knex: deps.knex,
    repos: createRepos(deps.knex),
    storage: deps.storage,
    providers: deps.tracing ? withProviderSpans(deps.providers, deps.tracing.tracer) : deps.providers,
    ...(deps.allowPrivateOutputUrls && { allowPrivateOutputUrls: true }),
    ...(deps.callbackUrlFor && { callbackUrlFor: deps.callbackUrlFor }),
    ...(deps.pollHints && { pollHints: deps.pollHints }),
    ...(deps.temporal && { temporal: deps.temporal }),
    ...(deps.webhooks && { webhooks: deps.webhooks }),
    ...(deps.anomaly && { anomaly: deps.anomaly }),
    ...(deps.eventRetentionDays !== undefined && { eventRetentionDays: deps.eventRetentionDays }),
  });
  const slots = deps.workflowTaskSlots ?? DEFAULT_WORKFLOW_TASK_SLOTS;
  const code = workflowCode(undefined, { traced: deps.tracing !== undefined });
  const traced = deps.tracing?.workerOptions();
  return Worker.create({
    connection: deps.connection,
    namespace: deps.namespace,
    taskQueue: deps.taskQueue,
    activities,
    // A sync job's provider call (a local activity) holds its workflow task slot until it returns:
    // with the SDK's 40 slots, 40 slow sync jobs would keep every new request from being admitted.
    maxConcurrentWorkflowTaskExecutions: slots,
    maxConcurrentLocalActivityExecutions: slots,
    // The cache must hold at least every workflow whose task is running. Beyond that, each cached
    // workflow costs memory in the workflow thread and in the SDK's core for as long as it waits
    // (docs/benchmarks.md, bench:async), so idle ones are evicted instead.
    maxCachedWorkflows: Math.max(slots, deps.cachedWorkflows ?? DEFAULT_CACHED_WORKFLOWS),
    // A burst of new workflows (a fan-out of webhook deliveries, a wave of requests) waits on the
    // non-sticky queue, which the SDK's fixed default polls with 2 calls: autoscaling pollers follow
    // the backlog the server reports instead.
    workflowTaskPollerBehavior: deps.workflowTaskPollers === undefined ? { type: 'autoscaling' } : { type: 'simple-maximum', maximum: deps.workflowTaskPollers },
    activityTaskPollerBehavior: { type: 'autoscaling' },
    ...(deps.activitySlots !== undefined && { maxConcurrentActivityTaskExecutions: deps.activitySlots }),
    ...traced,
    ...(deps.workflowBundle
      ? { workflowBundle: deps.workflowBundle }
      : {
          workflowsPath: code.workflowsPath,
          bundlerOptions: { preloadModules: code.preloadModules },
          ...(traced && { interceptors: { ...traced.interceptors, workflowModules: code.workflowInterceptorModules } }),
        }),
  });
}
