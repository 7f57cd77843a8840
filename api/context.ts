import type { Tracer } from '@opentelemetry/api';
import type { Client } from '@temporalio/client';
import type { Knex } from 'knex';
import type Koa from 'koa';
import type { WebhookDeps } from '../config/webhook-settings';
import type { Repos } from '../db/repos';
import type { KeyPrincipal } from '../db/repos/api-keys';
import type { SecretBox } from '../lib/secret-box';
import type { RealProvider } from '../domain/providers';
import type { Plan } from '../domain/plans';
import type { RoutingConfig } from '../domain/provider-routing';
import type { IpRange } from '../lib/ip-ranges';
import type { Logger } from '../lib/logger';
import type { Storage } from '../storage/types';
import type { UrlSigner } from '../storage/url-signer';
import type { IdempotencyState } from './idempotency-state';
import type { PrincipalCache } from './guards/principal-cache';
import type { RateLimiter } from './guards/rate-limiter';
import type { GenerationTimeouts } from '../workflows/definitions';

/** Everything the API needs, built once by the composition root (api/server.ts) or a test. */
export interface ApiDeps {
  knex: Knex;
  repos: Repos;
  temporal: Client;
  taskQueue: string;
  /**
   * API_EMBEDDED_WORKER: the client on the API's own worker's connection and the sync queue it
   * polls (worker/sync-worker.ts); sync generations start eagerly there. Absent: Update-with-Start.
   */
  syncStarts?: { client: Client; taskQueue: string };
  storage: Storage;
  /** Local storage's signer, which the /files routes verify with. */
  urlSigner: UrlSigner;
  /** ALLOW_PRIVATE_INPUT_URLS: input URLs may reach private addresses (tests, development). */
  allowPrivateInputUrls: boolean;
  routing: RoutingConfig;
  logger: Logger;
  adminToken: string | undefined;
  /** TRUST_PROXY: proxies whose X-Forwarded-For is believed. */
  trustedProxies: IpRange[];
  principals: PrincipalCache;
  rateLimiter: RateLimiter;
  /** RATE_LIMIT_PER_MINUTE: per key, unless the organization has its own. */
  rateLimitPerMinute: number;
  syncTimeoutMs: number;
  /** ADMISSION_TIMEOUT_MS: a job no worker admits by then is refused (503) and can never run later. */
  admissionTimeoutMs: number;
  generationTimeouts: GenerationTimeouts;
  /** URL_SIGNING_SECRET, which also signs provider callback URLs (domain/callback-token.ts). */
  providerCallbackSecret: string;
  /** EVENT_RETENTION_DAYS: GET /v1/events shows only events younger than this. */
  eventRetentionDays: number;
  /** OUTPUT_RETENTION_DAYS by plan: a job's output retention when neither its request nor its organization sets one. */
  outputRetentionDays: Record<Plan, number>;
  /** Webhook secrets and delivery settings; without them (no WEBHOOK_SECRETS_KEY) webhooks answer 503. */
  webhooks?: WebhookDeps;
  /** Seals the provider keys organizations bring (PROVIDER_SECRETS_KEY); without it BYOK answers 503. */
  providerSecrets?: SecretBox;
  /** Providers an organization may bring its own key for: those with a base URL here (decisions §7). */
  byokProviders: readonly RealProvider[];
  /** Origins the dashboard may load outputs from besides its own (storage/media-origins.ts). */
  dashboardMediaOrigins: string[];
  /** Wall clock for windows measured by the API (idempotency, cache); tests move it. */
  clock: () => Date;
  /** Set when the process traces (observability/tracing.ts): every request gets a server span. */
  tracer?: Tracer;
}

export interface AppState extends Koa.DefaultState {
  requestId: string;
  /** performance.now() when the request reached the API (api/gateway-overhead.ts counts from it). */
  receivedAt: number;
  logger: Logger;
  /** Parsed JSON body; `{}` when the request had none. */
  body: unknown;
  principal?: KeyPrincipal;
  /** Set when the request carries an Idempotency-Key it has claimed. */
  idempotency?: IdempotencyState;
  /** A creation request's output expiry (api/middleware/output-retention.ts); null: never. */
  outputsExpireAt?: Date | null;
}

export type AppContext = Koa.ParameterizedContext<AppState>;
