import { readFileSync } from 'node:fs';
import { webhookSecretsKeys, type Config } from '../../config';
import { createSecretBox } from '../../lib/secret-box';
import type { WebhookDeps } from '.';

/**
 * The webhook settings the API and the worker share, from the configuration; undefined without
 * WEBHOOK_SECRETS_KEY (webhooks are then off: the API answers 503, the worker delivers nothing).
 */
export function webhookDepsFromConfig(config: Config): WebhookDeps | undefined {
  if (!config.webhookSecretsKey) return undefined;
  return {
    secretBox: createSecretBox(webhookSecretsKeys(config)),
    allowPrivateAddresses: config.allowPrivateWebhookUrls,
    ...(config.webhookCaCerts && { extraCa: readFileSync(config.webhookCaCerts, 'utf8') }),
    relay: { taskQueue: config.webhookTaskQueue, scheduleMs: config.webhookRetryScheduleMs, timeoutMs: config.webhookTimeoutMs },
  };
}
