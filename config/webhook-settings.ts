import { readFileSync } from 'node:fs';
import { createSecretBox, type SecretBox } from '../lib/secret-box';
import { webhookSecretsKeys, type Config } from '.';

// The webhook settings the API and the worker share, read once from the configuration: the API
// seals subscriptions' secrets and vets their URLs with them, the worker opens the secrets and sends
// with them, and both start deliveries' workflows with the relay's part (workflow-starts/). Here,
// beside the configuration they come from, because both sides need them and neither may import the
// other's code (docs/architecture.md, "Import rules").

/** How a delivery's workflow is started: on which task queue, with which retry schedule and timeout. */
export interface WebhookRelaySettings {
  taskQueue: string;
  scheduleMs: number[];
  timeoutMs: number;
}

export interface WebhookDeps {
  secretBox: SecretBox;
  allowPrivateAddresses: boolean;
  /** WEBHOOK_CA_CERTS: certificate authorities trusted besides the system's (a private PKI). */
  extraCa?: string;
  relay: WebhookRelaySettings;
  /** WEBHOOK_DISABLE_AFTER: how long every attempt may fail before the subscription is disabled. */
  disableAfterMs: number;
  /** A bulk recovery's pages (domain/webhook-recovery.ts by default); tests shorten them to reach continue-as-new. */
  recoveryPaging?: { pageSize: number; pagesPerRun: number };
}

/**
 * The webhook settings from the configuration; undefined without WEBHOOK_SECRETS_KEY (webhooks are
 * then off: the API answers 503, the worker delivers nothing).
 */
export function webhookDepsFromConfig(config: Config): WebhookDeps | undefined {
  if (!config.webhookSecretsKey) return undefined;
  return {
    secretBox: createSecretBox(webhookSecretsKeys(config)),
    allowPrivateAddresses: config.allowPrivateWebhookUrls,
    ...(config.webhookCaCerts && { extraCa: readFileSync(config.webhookCaCerts, 'utf8') }),
    disableAfterMs: config.webhookDisableAfterMs,
    relay: { taskQueue: config.webhookTaskQueue, scheduleMs: config.webhookRetryScheduleMs, timeoutMs: config.webhookTimeoutMs },
  };
}
