import type { Knex } from 'knex';
import { createSealedSecretsRepo, type SealedColumn, type SealedValue } from '../db/repos/sealed-secrets';
import { providerCredentialBinding, webhookSecretBinding } from '../lib/secret-bindings';
import type { SecretBox } from '../lib/secret-box';
import { describeError, type Logger } from '../lib/logger';

// The background half of a secrets key rotation (docs/operations.md, "Rotating the secrets keys"): once the
// processes run with a new key (the old one moved to `*_PREVIOUS`), each worker, at its start,
// re-seals every value not sealed with the newest key (older keys, and v1 values from before key
// ids), in batches, and logs how many are left on older keys: at 0 the old key can be dropped.
// Several workers doing it at once is safe: each row is swapped only if it still holds the value
// that was read, so a concurrent rotate-secret or PUT is never overwritten.

const BATCH = 100;
/** After a failed pass (the database away), the next one. */
const RETRY_MS = 60_000;

interface Column extends SealedColumn {
  boundTo(key: string[]): string;
}

const WEBHOOK_COLUMNS: Column[] = ['secret_sealed', 'previous_secret_sealed'].map((column) => ({
  table: 'webhook_subscriptions',
  keys: ['id'],
  column,
  boundTo: ([id]) => webhookSecretBinding(id!),
}));

const PROVIDER_COLUMNS: Column[] = [
  {
    table: 'provider_credentials',
    keys: ['organization_id', 'provider'],
    column: 'sealed_api_key',
    boundTo: ([organizationId, provider]) => providerCredentialBinding(organizationId!, provider!),
  },
];

export interface ResealBoxes {
  /** WEBHOOK_SECRETS_KEY (+ _PREVIOUS); absent when webhooks are off. */
  webhooks?: SecretBox;
  /** PROVIDER_SECRETS_KEY (+ _PREVIOUS); absent when BYOK is off. */
  providers?: SecretBox;
}

export interface ResealResult {
  resealed: number;
  /** Values that none of the configured keys opens (left as they are, named in the log). */
  unopenable: number;
  leftOnOlderKeys: number;
}

/**
 * One pass over every sealed column: re-seals what is not on the newest key, `batchSize` rows at a
 * time, then counts what is left. `stopping` ends it early (between batches), with undefined.
 */
export async function resealSecrets(
  knex: Knex,
  boxes: ResealBoxes,
  logger: Logger,
  opts: { stopping?: () => boolean; batchSize?: number } = {},
): Promise<ResealResult | undefined> {
  const { stopping = () => false, batchSize = BATCH } = opts;
  const repo = createSealedSecretsRepo(knex);
  const result: ResealResult = { resealed: 0, unopenable: 0, leftOnOlderKeys: 0 };
  const work: [SecretBox, Column][] = [
    ...(boxes.webhooks ? WEBHOOK_COLUMNS.map((c): [SecretBox, Column] => [boxes.webhooks!, c]) : []),
    ...(boxes.providers ? PROVIDER_COLUMNS.map((c): [SecretBox, Column] => [boxes.providers!, c]) : []),
  ];
  for (const [box, column] of work) {
    let after: string[] | undefined;
    for (;;) {
      if (stopping()) return undefined;
      const batch = await repo.staleBatch(column, box.currentPrefix, after, batchSize);
      for (const value of batch) {
        const resealed = reseal(box, column, value, logger);
        if (resealed === undefined) result.unopenable += 1;
        else if (await repo.replace(column, value, resealed)) result.resealed += 1;
      }
      if (batch.length < batchSize) break;
      after = batch[batch.length - 1]!.key;
    }
    result.leftOnOlderKeys += await repo.countStale(column, box.currentPrefix);
  }
  if (!boxes.providers) {
    // Upgrading from when BYOK keys fell back to WEBHOOK_SECRETS_KEY: they need PROVIDER_SECRETS_KEY now.
    const stored = await repo.countAll(PROVIDER_COLUMNS[0]!);
    if (stored > 0) logger.warn('provider keys are stored but PROVIDER_SECRETS_KEY is not set: organizations cannot use them', { provider_credentials: stored });
  }
  return result;
}

function reseal(box: SecretBox, column: Column, value: SealedValue, logger: Logger): string | undefined {
  const boundTo = column.boundTo(value.key);
  try {
    return box.seal(box.open(value.sealed, boundTo), boundTo);
  } catch (err) {
    logger.error('a sealed secret opens with none of the configured keys', { table: column.table, column: column.column, row: value.key.join(':'), ...describeError(err) });
    return undefined;
  }
}

/**
 * Runs the re-seal in the background until one pass completes (a failed pass is retried), logging
 * `secrets re-seal finished` with `left_on_older_keys`. Resolves `stop()` once it has stopped.
 */
export function startSecretsReseal(knex: Knex, boxes: ResealBoxes, logger: Logger): { stop(): Promise<void> } {
  let stopped = false;
  let wake: (() => void) | undefined;
  const run = (async () => {
    while (!stopped) {
      try {
        const result = await resealSecrets(knex, boxes, logger, { stopping: () => stopped });
        if (!result) return;
        logger.info('secrets re-seal finished', { resealed: result.resealed, unopenable: result.unopenable, left_on_older_keys: result.leftOnOlderKeys });
        return;
      } catch (err) {
        if (stopped) return;
        logger.error('secrets re-seal failed; retrying', { retry_in_ms: RETRY_MS, ...describeError(err) });
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, RETRY_MS).unref();
        });
      }
    }
  })();
  return {
    async stop() {
      stopped = true;
      wake?.();
      await run;
    },
  };
}
