import { Context } from '@temporalio/activity';
import type { Client } from '@temporalio/client';
import type { Knex } from 'knex';
import type { WebhookDeps } from '../../config/webhook-settings';
import type { Repos } from '../../db/repos';
import { createAttemptActivities } from './attempt';
import { createRecoveryActivities } from './recovery';
import { createWebhookRelay } from './relay';

/** Webhook activities; a worker without webhook settings fails them with a message saying so. */
export function createWebhookActivities(deps: { knex: Knex; repos: Repos; temporal?: Client; webhooks?: WebhookDeps }) {
  const settings = (): WebhookDeps => {
    if (!deps.webhooks) throw new Error('this worker has no webhook settings (WEBHOOK_SECRETS_KEY)');
    return deps.webhooks;
  };
  return {
    ...createAttemptActivities({ repos: deps.repos, settings }),
    ...createRecoveryActivities({ repos: deps.repos, settings, ...(deps.temporal && { temporal: deps.temporal }) }),

    /**
     * The relay's sweep (workflows/webhook-relay.ts): the relay's pass, then the restart of every
     * delivery whose workflow closed before it ended.
     */
    async relayWebhookEvents(): Promise<{ events: number; deliveries: number; started: number; restarted: number }> {
      if (!deps.temporal) throw new Error('the webhook relay needs a Temporal client');
      const relay = createWebhookRelay({
        repos: deps.repos,
        temporal: deps.temporal,
        settings: settings().relay,
        heartbeat: () => Context.current().heartbeat(),
        log: (message, fields) => Context.current().log.warn(message, fields),
      });
      const passed = await relay.relay();
      return { ...passed, restarted: await relay.restartStranded() };
    },
  };
}
