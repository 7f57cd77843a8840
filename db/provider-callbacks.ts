import type { Knex } from 'knex';

/** The channel a provider's callback is passed on to the workers by (activities/poll-hints.ts). */
export const PROVIDER_CALLBACK_CHANNEL = 'provider_callbacks';

/** Tells every worker listening that the provider called back about this generation's job. */
export async function notifyProviderCallback(knex: Knex, generationId: string): Promise<void> {
  await knex.raw('SELECT pg_notify(?, ?)', [PROVIDER_CALLBACK_CHANNEL, generationId]);
}
