import { DEFAULT_ANOMALY_FACTOR, DEFAULT_ANOMALY_FLOOR_CREDITS } from '../domain/spending-anomaly';
import { ModelRoutesError, parseModelRoutes } from '../domain/model-routes';
import type { ProviderRoute, RealProvider } from '../domain/providers';
import { DEFAULT_WEBHOOK_DISABLE_AFTER } from '../domain/webhook-endpoint-health';
import { DEFAULT_WEBHOOK_RETRY_SCHEDULE, parseDurationMs, parseRetrySchedule } from '../domain/webhook-retry-schedule';
import { parseSecretBoxKey } from '../lib/secret-box';
import { DEFAULT_RETENTION_DAYS } from '../domain/output-retention';
import { DEFAULT_EVENT_RETENTION_DAYS } from '../domain/event-retention';
import { PLANS, type Plan } from '../domain/plans';
// The service's whole configuration, read once from the environment (decisions §10).
// Nothing else in the code base reads process.env.

export type ProviderMode = 'simulated' | 'live';

export interface Config {
  port: number;
  databaseUrl: string | undefined;
  temporalAddress: string | undefined;
  temporalNamespace: string;
  taskQueue: string;
  adminToken: string | undefined;
  publicBaseUrl: string;
  urlSigningSecret: string | undefined;
  storage: 'local' | 's3';
  localStorageDir: string;
  /** STORAGE=s3: the bucket (required then), its region, and an S3-compatible endpoint if not AWS. */
  s3Bucket: string | undefined;
  s3Region: string;
  s3Endpoint: string | undefined;
  s3ForcePathStyle: boolean;
  /** Both or neither; neither means the AWS default credential chain. */
  s3AccessKeyId: string | undefined;
  s3SecretAccessKey: string | undefined;
  providerMode: ProviderMode;
  /** The platform's provider credentials (decisions §7); a provider without its key is absent. */
  providerCredentials: Partial<Record<RealProvider, { apiKey: string; baseUrl: string }>>;
  /**
   * Where each provider is called: its `*_BASE_URL`, else its documented default (none for the
   * OpenAI-compatible server). Keys organizations bring (BYOK) are used at these URLs.
   */
  providerBaseUrls: Partial<Record<RealProvider, string>>;
  /** MODEL_ROUTES: routes replacing a model's catalog routes. */
  modelRoutes: Record<string, ProviderRoute[]>;
  /** PROVIDER_REQUEST_TIMEOUT_MS: one HTTP request to a provider; past it, a retryable timeout. */
  providerRequestTimeoutMs: number;
  /**
   * PROVIDER_SECRETS_KEY (base64 of 32 bytes): encrypts the provider keys organizations bring
   * (BYOK). Without it, storing one answers 503 (never the webhook key: each secret has its own).
   */
  providerSecretsKey: string | undefined;
  /** PROVIDER_SECRETS_KEY_PREVIOUS: older keys (comma-separated), still opening what they sealed. */
  providerSecretsPreviousKeys: string[];
  /** How long the simulator's async jobs (video, music, avatar, 3D, upscale) take without #slow. */
  simulatorAsyncLatencyMs: number;
  /**
   * WORKER_WORKFLOW_TASK_SLOTS: workflow tasks one worker runs at once. A sync job's provider call is
   * a local activity, which holds its workflow's task slot for the whole call, so this is also how
   * many sync jobs (a comparison's sync children included) one worker runs side by side.
   */
  workerWorkflowTaskSlots: number;
  /**
   * WORKER_ACTIVITY_SLOTS: activities one worker runs at once on the generation queue. An async
   * job's polling activity holds its slot for the whole job while it mostly sleeps, so this is
   * about how many async provider jobs one worker follows at once.
   */
  workerActivitySlots: number;
  /**
   * WORKER_CACHED_WORKFLOWS: workflows one worker keeps in memory between their tasks, per task
   * queue (never fewer than its workflow task slots). An async job waiting on its provider or a
   * delivery waiting for its next attempt is evicted first when the cache is full, and replays from
   * its history when it next moves: a few ms of CPU instead of holding its state all along.
   */
  workerCachedWorkflows: number;
  allowPrivateWebhookUrls: boolean;
  /** Input URLs (image_url, …) on private addresses; for tests and development only. */
  allowPrivateInputUrls: boolean;
  trustProxy: string[];
  rateLimitPerMinute: number;
  syncTimeoutMs: number;
  /** How long a creation request waits for a worker to admit it before answering 503. */
  admissionTimeoutMs: number;
  /** WEBHOOK_RETRY_SCHEDULE: the gap before each delivery attempt, in ms. */
  webhookRetryScheduleMs: number[];
  webhookTimeoutMs: number;
  /** WEBHOOK_DISABLE_AFTER: a subscription whose every delivery failed this long is disabled. */
  webhookDisableAfterMs: number;
  /** WEBHOOK_SECRETS_KEY: base64 of 32 bytes; encrypts webhook secrets at rest. Without it, no webhooks. */
  webhookSecretsKey: string | undefined;
  /** WEBHOOK_SECRETS_KEY_PREVIOUS: older keys (comma-separated), still opening what they sealed. */
  webhookSecretsPreviousKeys: string[];
  /**
   * API_EMBEDDED_WORKER: the API process runs its own worker on the sync queue and starts sync
   * generations (image, voice, chat) eagerly on it, one Temporal hand-off less per request. Off: the
   * API starts them with Update-with-Start on TEMPORAL_TASK_QUEUE, as before.
   */
  apiEmbeddedWorker: boolean;
  /** API_EMBEDDED_WORKER_SLOTS: sync jobs the API's own worker runs at once; a start beyond them goes to the worker processes. */
  apiEmbeddedWorkerSlots: number;
  /** `<TEMPORAL_TASK_QUEUE>-sync`: eagerly started sync generations; the API's worker and every worker process poll it. */
  syncTaskQueue: string;
  /** WEBHOOK_TASK_QUEUE: the deliveries' own queue, so a slow receiver never delays a generation. */
  webhookTaskQueue: string;
  /** WEBHOOK_CONCURRENT_ATTEMPTS: delivery attempts one worker runs at once. */
  webhookConcurrentAttempts: number;
  /** WEBHOOK_CA_CERTS: a PEM file of certificate authorities receivers may use besides the system's. */
  webhookCaCerts: string | undefined;
  /** EVENT_RETENTION_DAYS: how long events are kept: GET /v1/events shows nothing older, the workers' retention sweep deletes older ones. */
  eventRetentionDays: number;
  /**
   * OUTPUT_RETENTION_DAYS (30), and OUTPUT_RETENTION_DAYS_<PLAN> for one plan: how long a job's
   * output files are kept when neither its request nor its organization says (domain/output-retention.ts).
   */
  outputRetentionDays: Record<Plan, number>;
  outputUrlTtlSeconds: number;
  /**
   * OTEL_EXPORTER_OTLP_ENDPOINT is set (and OTEL_SDK_DISABLED is not `true`): the process exports
   * traces by OTLP/HTTP (observability/tracing.ts). The OpenTelemetry SDK reads its OTEL_* settings itself.
   */
  otlpTracing: boolean;
  /** ANOMALY_FACTOR: live spend in 10 minutes above this many times the usual pauses an organization. */
  anomalyFactor: number;
  /** ANOMALY_FLOOR_CREDITS: ... and only above this many credits in those 10 minutes. */
  anomalyFloorCredits: number;
  logLevel: 'debug' | 'info' | 'warn' | 'error';
  /** API_METRICS_PORT: the API's Prometheus `GET /metrics` listener, apart from the public port; 0 = none. */
  apiMetricsPort: number;
  /** WORKER_METRICS_PORT: the worker's `GET /metrics` (ours and the Temporal SDK's); 0 = none. */
  workerMetricsPort: number;
}

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

function integer(env: Env, name: string, fallback: number, min = 0): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) {
    throw new ConfigError(`${name} must be an integer >= ${min}, got "${raw}"`);
  }
  return value;
}

function outputRetentionDays(env: Env): Record<Plan, number> {
  const all = integer(env, 'OUTPUT_RETENTION_DAYS', DEFAULT_RETENTION_DAYS, 1);
  const days = (plan: Plan) => integer(env, `OUTPUT_RETENTION_DAYS_${plan.toUpperCase()}`, all, 1);
  const byPlan = Object.fromEntries(PLANS.map((plan) => [plan, days(plan)])) as Record<Plan, number>;
  for (const plan of PLANS) {
    if (byPlan[plan] > 365) throw new ConfigError(`OUTPUT_RETENTION_DAYS and OUTPUT_RETENTION_DAYS_${plan.toUpperCase()} must be at most 365 (a request may ask for at most 365d)`);
  }
  return byPlan;
}

function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!(allowed as readonly string[]).includes(raw)) {
    throw new ConfigError(`${name} must be one of ${allowed.join(', ')}, got "${raw}"`);
  }
  return raw as T;
}

function flag(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  throw new ConfigError(`${name} must be true or false, got "${raw}"`);
}

function optionalUrl(env: Env, name: string): string | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  if (!URL.canParse(raw) || !/^https?:$/.test(new URL(raw).protocol)) {
    throw new ConfigError(`${name} must be an http(s) URL, got "${raw}"`);
  }
  return raw;
}

/**
 * `embedded` is true when `npm start` brought up Postgres and Temporal itself; it only changes
 * defaults that are safe on a developer's machine and unsafe in production.
 */
export function loadConfig(env: Env = process.env, opts: { embedded?: boolean } = {}): Config {
  const embedded = opts.embedded ?? false;
  const port = integer(env, 'PORT', 8080, 0);
  return {
    port,
    databaseUrl: env.DATABASE_URL || undefined,
    temporalAddress: env.TEMPORAL_ADDRESS || undefined,
    temporalNamespace: env.TEMPORAL_NAMESPACE || 'default',
    taskQueue: env.TEMPORAL_TASK_QUEUE || 'generations',
    adminToken: env.ADMIN_TOKEN || undefined,
    publicBaseUrl: (env.PUBLIC_BASE_URL || `http://localhost:${port}`).replace(/\/+$/, ''),
    urlSigningSecret: env.URL_SIGNING_SECRET || undefined,
    storage: oneOf(env, 'STORAGE', ['local', 's3'] as const, 'local'),
    localStorageDir: env.LOCAL_STORAGE_DIR || '.data/storage',
    s3Bucket: env.S3_BUCKET || undefined,
    s3Region: env.S3_REGION || 'us-east-1',
    s3Endpoint: optionalUrl(env, 'S3_ENDPOINT'),
    s3ForcePathStyle: flag(env, 'S3_FORCE_PATH_STYLE', false),
    ...s3Credentials(env),
    providerMode: oneOf(env, 'PROVIDER_MODE', ['simulated', 'live'] as const, embedded ? 'simulated' : 'live'),
    providerCredentials: providerCredentials(env),
    providerBaseUrls: providerBaseUrls(env),
    modelRoutes: modelRoutes(env),
    providerRequestTimeoutMs: integer(env, 'PROVIDER_REQUEST_TIMEOUT_MS', 120_000, 1),
    ...secretsKeys(env, 'PROVIDER_SECRETS_KEY', 'providerSecretsKey', 'providerSecretsPreviousKeys'),
    simulatorAsyncLatencyMs: integer(env, 'SIMULATOR_ASYNC_LATENCY_MS', 2_000, 0),
    workerWorkflowTaskSlots: integer(env, 'WORKER_WORKFLOW_TASK_SLOTS', 200, 2),
    workerActivitySlots: integer(env, 'WORKER_ACTIVITY_SLOTS', 1_000, 1),
    workerCachedWorkflows: integer(env, 'WORKER_CACHED_WORKFLOWS', 250, 1),
    allowPrivateWebhookUrls: flag(env, 'ALLOW_PRIVATE_WEBHOOK_URLS', embedded),
    allowPrivateInputUrls: flag(env, 'ALLOW_PRIVATE_INPUT_URLS', false),
    trustProxy: (env.TRUST_PROXY || '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    rateLimitPerMinute: integer(env, 'RATE_LIMIT_PER_MINUTE', 600, 1),
    syncTimeoutMs: integer(env, 'SYNC_TIMEOUT_MS', 30_000, 0),
    admissionTimeoutMs: integer(env, 'ADMISSION_TIMEOUT_MS', 30_000, 1),
    webhookRetryScheduleMs: retrySchedule(env),
    ...secretsKeys(env, 'WEBHOOK_SECRETS_KEY', 'webhookSecretsKey', 'webhookSecretsPreviousKeys'),
    webhookCaCerts: env.WEBHOOK_CA_CERTS || undefined,
    webhookConcurrentAttempts: integer(env, 'WEBHOOK_CONCURRENT_ATTEMPTS', 500, 1),
    apiEmbeddedWorker: flag(env, 'API_EMBEDDED_WORKER', true),
    apiEmbeddedWorkerSlots: integer(env, 'API_EMBEDDED_WORKER_SLOTS', 100, 1),
    syncTaskQueue: `${env.TEMPORAL_TASK_QUEUE || 'generations'}-sync`,
    webhookTaskQueue: env.WEBHOOK_TASK_QUEUE || `${env.TEMPORAL_TASK_QUEUE || 'generations'}-webhooks`,
    webhookTimeoutMs: integer(env, 'WEBHOOK_TIMEOUT_MS', 15_000, 1),
    webhookDisableAfterMs: duration(env, 'WEBHOOK_DISABLE_AFTER', DEFAULT_WEBHOOK_DISABLE_AFTER),
    eventRetentionDays: integer(env, 'EVENT_RETENTION_DAYS', DEFAULT_EVENT_RETENTION_DAYS, 1),
    outputRetentionDays: outputRetentionDays(env),
    outputUrlTtlSeconds: integer(env, 'OUTPUT_URL_TTL_SECONDS', 86_400, 1),
    otlpTracing: Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT) && env.OTEL_SDK_DISABLED?.toLowerCase() !== 'true',
    anomalyFactor: integer(env, 'ANOMALY_FACTOR', DEFAULT_ANOMALY_FACTOR, 1),
    anomalyFloorCredits: integer(env, 'ANOMALY_FLOOR_CREDITS', DEFAULT_ANOMALY_FLOOR_CREDITS, 0),
    logLevel: oneOf(env, 'LOG_LEVEL', ['debug', 'info', 'warn', 'error'] as const, 'info'),
    apiMetricsPort: integer(env, 'API_METRICS_PORT', 9464, 0),
    workerMetricsPort: integer(env, 'WORKER_METRICS_PORT', 9465, 0),
  };
}

/** Each provider's key and base URL (decisions §7): `<KEY>` makes a provider configured. */
const PROVIDER_SETTINGS: Record<RealProvider, { key: string; url: string; defaultUrl?: string }> = {
  openai: { key: 'OPENAI_API_KEY', url: 'OPENAI_BASE_URL', defaultUrl: 'https://api.openai.com/v1' },
  anthropic: { key: 'ANTHROPIC_API_KEY', url: 'ANTHROPIC_BASE_URL', defaultUrl: 'https://api.anthropic.com' },
  fal: { key: 'FAL_KEY', url: 'FAL_QUEUE_URL', defaultUrl: 'https://queue.fal.run' },
  replicate: { key: 'REPLICATE_API_TOKEN', url: 'REPLICATE_BASE_URL', defaultUrl: 'https://api.replicate.com/v1' },
  elevenlabs: { key: 'ELEVENLABS_API_KEY', url: 'ELEVENLABS_BASE_URL', defaultUrl: 'https://api.elevenlabs.io' },
  // No public default: a self-hosted server (vLLM, Ollama) needs its base URL as well as its key.
  openai_compatible: { key: 'OPENAI_COMPATIBLE_API_KEY', url: 'OPENAI_COMPATIBLE_BASE_URL' },
};

/** The setting that gives a provider its base URL (FAL_QUEUE_URL for fal), for messages to operators. */
export function providerBaseUrlSetting(provider: RealProvider): string {
  return PROVIDER_SETTINGS[provider].url;
}

function providerBaseUrls(env: Env): Config['providerBaseUrls'] {
  const urls: Config['providerBaseUrls'] = {};
  for (const [provider, setting] of Object.entries(PROVIDER_SETTINGS) as [RealProvider, (typeof PROVIDER_SETTINGS)[RealProvider]][]) {
    const url = optionalUrl(env, setting.url) ?? setting.defaultUrl;
    if (url) urls[provider] = url.replace(/\/+$/, '');
  }
  return urls;
}

function providerCredentials(env: Env): Config['providerCredentials'] {
  const urls = providerBaseUrls(env);
  const credentials: Config['providerCredentials'] = {};
  for (const [provider, setting] of Object.entries(PROVIDER_SETTINGS) as [RealProvider, (typeof PROVIDER_SETTINGS)[RealProvider]][]) {
    const apiKey = env[setting.key] || '';
    const baseUrl = urls[provider];
    // Decisions §7: a provider without its key is not configured, a keyless server included (give
    // it any key; Ollama ignores it).
    if (apiKey !== '' && baseUrl) credentials[provider] = { apiKey, baseUrl };
  }
  return credentials;
}

function modelRoutes(env: Env): Record<string, ProviderRoute[]> {
  try {
    return parseModelRoutes(env.MODEL_ROUTES);
  } catch (err) {
    if (err instanceof ModelRoutesError) throw new ConfigError(err.message);
    throw err;
  }
}

function s3Credentials(env: Env): Pick<Config, 's3AccessKeyId' | 's3SecretAccessKey'> {
  const s3AccessKeyId = env.S3_ACCESS_KEY_ID || undefined;
  const s3SecretAccessKey = env.S3_SECRET_ACCESS_KEY || undefined;
  if ((s3AccessKeyId === undefined) !== (s3SecretAccessKey === undefined)) {
    throw new ConfigError('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together: set both, or neither to use the AWS default credential chain');
  }
  return { s3AccessKeyId, s3SecretAccessKey };
}

/**
 * A secrets key and the older ones it replaced (`<NAME>_PREVIOUS`, comma-separated, newest first),
 * each base64 of 32 bytes. Older keys only open what they sealed, so they need the current key.
 */
function secretsKeys<C extends keyof Config, P extends keyof Config>(
  env: Env,
  name: string,
  currentField: C,
  previousField: P,
): Record<C, string | undefined> & Record<P, string[]> {
  const current = env[name]?.trim() || undefined;
  const previous = (env[`${name}_PREVIOUS`] || '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (previous.length > 0 && current === undefined) {
    throw new ConfigError(`${name}_PREVIOUS is set without ${name}: set ${name} to the new key and keep the old ones in ${name}_PREVIOUS`);
  }
  const all = current === undefined ? previous : [current, ...previous];
  for (const key of all) {
    if (!parseSecretBoxKey(key)) throw new ConfigError(`${name} and ${name}_PREVIOUS take base64 of 32 random bytes each (e.g. \`openssl rand -base64 32\`)`);
  }
  if (new Set(all.map((key) => parseSecretBoxKey(key)!.toString('hex'))).size !== all.length) {
    throw new ConfigError(`${name}_PREVIOUS repeats a key: list each older key once, and not the current one`);
  }
  return { [currentField]: current, [previousField]: previous } as Record<C, string | undefined> & Record<P, string[]>;
}

/** The webhook secrets keys, the newest first (empty without WEBHOOK_SECRETS_KEY). */
export function webhookSecretsKeys(config: Pick<Config, 'webhookSecretsKey' | 'webhookSecretsPreviousKeys'>): string[] {
  return config.webhookSecretsKey ? [config.webhookSecretsKey, ...config.webhookSecretsPreviousKeys] : [];
}

/** The provider secrets keys (BYOK), the newest first (empty without PROVIDER_SECRETS_KEY). */
export function providerSecretsKeys(config: Pick<Config, 'providerSecretsKey' | 'providerSecretsPreviousKeys'>): string[] {
  return config.providerSecretsKey ? [config.providerSecretsKey, ...config.providerSecretsPreviousKeys] : [];
}

/** Fails fast, with an actionable message, when a process cannot run without a setting. */
function retrySchedule(env: Env): number[] {
  try {
    return parseRetrySchedule(env.WEBHOOK_RETRY_SCHEDULE || DEFAULT_WEBHOOK_RETRY_SCHEDULE);
  } catch (err) {
    throw new ConfigError((err as Error).message);
  }
}

function duration(env: Env, name: string, fallback: string): number {
  try {
    return parseDurationMs(env[name] || fallback, name);
  } catch (err) {
    throw new ConfigError((err as Error).message);
  }
}

export function requireSetting<T>(value: T | undefined, name: string, why: string): T {
  if (value === undefined) throw new ConfigError(`${name} is required: ${why}`);
  return value;
}
