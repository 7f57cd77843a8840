import { REAL_PROVIDERS } from '../../domain/providers';
import { parseCreateApiKey, parseUpdateApiKey } from '../schemas/api-keys';
import { parseListQuery } from '../schemas/list-query';
import { PUT_PROVIDER_CREDENTIAL_SCHEMA } from '../schemas/provider-credentials';
import { parseUsageQuery } from '../schemas/usage';
import { parseCreateUser, parseUpdateUser } from '../schemas/users';
import { CREATE_WEBHOOK_SCHEMA, parseDeliveryListQuery, parseUpdateWebhook } from '../schemas/webhooks';
import { parseEventListQuery } from '../schemas/events';
import { parseRecoverWebhook } from '../schemas/webhook-recoveries';
import { MAX_WEBHOOKS_PER_ENVIRONMENT } from '../../domain/webhook-limit';
import type { OperationDoc } from './operation-doc';

// The OpenAPI side of the account routes: balance and usage, API keys, users, the organization's
// provider keys, and webhooks with their deliveries.

const list = (component: string, description: string) => ({ 200: { description, body: { component } } });
const one = (component: string, description: string) => ({ 200: { description, body: { component } } });
const providerParam = { provider: { type: 'string', enum: [...REAL_PROVIDERS] } };

export const ACCOUNT_OPERATIONS = {
  getBalance: {
    tag: 'Billing',
    summary: 'Get the balance',
    description: 'The wallet of the key’s organization and environment: available and reserved credits, and the key’s budget if it has one.',
    responses: one('Balance', 'The balance.'),
  },
  getUsage: {
    tag: 'Billing',
    summary: 'Get usage',
    description: 'Spend over a period, grouped by day, model, modality or key; `format=csv` answers the same rows as CSV.',
    query: parseUsageQuery.schema,
    responses: {
      200: {
        description: 'The usage report.',
        body: { component: 'Usage' },
        alternatives: { 'text/csv': { type: 'string', description: 'The same rows as CSV, with a header line.' } },
      },
    },
  },

  listApiKeys: {
    tag: 'API keys',
    summary: 'List API keys',
    query: parseListQuery.schema,
    responses: list('ApiKeyList', 'A page of keys (never their secrets).'),
    errors: ['resource_not_found'],
  },
  getCurrentApiKey: {
    tag: 'API keys',
    summary: 'Retrieve the calling API key',
    description: 'Any key may read itself: its environment, effective role, scopes and budget, and its organization’s plan. The dashboard signs in with it.',
    responses: one('CurrentApiKey', 'The key that made this request (never its secret).'),
  },
  createApiKey: {
    tag: 'API keys',
    summary: 'Create an API key',
    description: 'The secret is in this answer only: store it now.',
    body: parseCreateApiKey.schema,
    bodyRequired: true,
    responses: { 201: { description: 'The key, with its secret shown once.', body: { component: 'ApiKeyWithSecret' } } },
    errors: ['plan_upgrade_required'],
    links: { 201: { updateApiKey: { operationId: 'updateApiKey', parameters: { id: '$response.body#/id' } } } },
  },
  updateApiKey: {
    tag: 'API keys',
    summary: 'Update an API key',
    description: 'Name, role, scopes, monthly budget, IP allowlist or rate limit.',
    body: parseUpdateApiKey.schema,
    responses: one('ApiKey', 'The updated key.'),
    errors: ['plan_upgrade_required'],
  },
  revokeApiKey: {
    tag: 'API keys',
    summary: 'Revoke an API key',
    description: 'Takes effect at once on every API process.',
    responses: one('ApiKey', 'The revoked key.'),
  },

  listUsers: { tag: 'Users', summary: 'List users', query: parseListQuery.schema, responses: list('UserList', 'A page of users.'), errors: ['resource_not_found'] },
  createUser: {
    tag: 'Users',
    summary: 'Add a user',
    body: parseCreateUser.schema,
    bodyRequired: true,
    responses: { 201: { description: 'The user.', body: { component: 'User' } } },
    errors: ['resource_already_exists'],
    links: { 201: { updateUser: { operationId: 'updateUser', parameters: { id: '$response.body#/id' } } } },
  },
  updateUser: {
    tag: 'Users',
    summary: 'Change a user’s role',
    body: parseUpdateUser.schema,
    responses: one('User', 'The updated user.'),
    errors: ['last_owner', 'user_deactivated'],
  },
  deactivateUser: {
    tag: 'Users',
    summary: 'Deactivate a user',
    description: 'Final: the user’s keys stop working. The organization’s last owner cannot be deactivated.',
    responses: one('User', 'The deactivated user.'),
    errors: ['last_owner'],
  },

  listProviderCredentials: {
    tag: 'Provider credentials',
    summary: 'List provider keys',
    description: 'The organization’s own provider keys (bring your own key, Enterprise): which providers have one, never the key itself.',
    responses: list('ProviderCredentialList', 'Every stored provider key.'),
  },
  putProviderCredential: {
    tag: 'Provider credentials',
    summary: 'Set a provider key',
    description: 'Stores the key sealed; jobs on that provider then run on it. Enterprise only.',
    pathParams: providerParam,
    body: PUT_PROVIDER_CREDENTIAL_SCHEMA,
    bodyRequired: true,
    responses: one('ProviderCredential', 'The stored credential (without the key).'),
    errors: ['plan_upgrade_required'],
    links: { 200: { deleteProviderCredential: { operationId: 'deleteProviderCredential', parameters: { provider: '$response.body#/provider' } } } },
  },
  deleteProviderCredential: {
    tag: 'Provider credentials',
    summary: 'Delete a provider key',
    pathParams: providerParam,
    responses: one('DeletedProviderCredential', 'Deleted.'),
  },

  createWebhook: {
    tag: 'Webhooks',
    summary: 'Create a webhook',
    description: `Subscribes an HTTPS URL to event types (\`*\` for all). The signing secret is in this answer only. An organization has at most ${MAX_WEBHOOKS_PER_ENVIRONMENT} webhooks per environment (409 \`webhook_limit_reached\`).`,
    body: CREATE_WEBHOOK_SCHEMA,
    bodyRequired: true,
    responses: { 201: { description: 'The webhook, with its signing secret shown once.', body: { component: 'WebhookWithSecret' } } },
    errors: ['webhook_limit_reached'],
    links: {
      201: {
        getWebhook: { operationId: 'getWebhook', parameters: { id: '$response.body#/id' } },
        listWebhookDeliveries: { operationId: 'listWebhookDeliveries', parameters: { id: '$response.body#/id' } },
      },
    },
  },
  listWebhooks: { tag: 'Webhooks', summary: 'List webhooks', query: parseListQuery.schema, responses: list('WebhookList', 'A page of webhooks.'), errors: ['resource_not_found'] },
  getWebhook: { tag: 'Webhooks', summary: 'Get a webhook', responses: one('Webhook', 'The webhook (without its secret).') },
  updateWebhook: {
    tag: 'Webhooks',
    summary: 'Enable a webhook again, or set its delivery rate',
    description:
      'A disabled webhook (a 410 Gone, or every delivery failed for `WEBHOOK_DISABLE_AFTER`) receives nothing until `{"status": "enabled"}` enables it; its failures then count from scratch. ' +
      'Events that happened meanwhile are recorded as `exhausted` deliveries, to replay. ' +
      '`max_deliveries_per_second` sets its delivery rate (null: unlimited) for deliveries sent from now on.',
    body: parseUpdateWebhook.schema,
    bodyRequired: true,
    responses: one('Webhook', 'The webhook, updated.'),
  },
  deleteWebhook: { tag: 'Webhooks', summary: 'Delete a webhook', description: 'Pending deliveries stop.', responses: one('DeletedWebhook', 'Deleted.') },
  rotateWebhookSecret: {
    tag: 'Webhooks',
    summary: 'Rotate a webhook’s secret',
    description: 'For 24 hours deliveries carry two signatures, one per secret, so receivers can switch without losing events.',
    responses: one('WebhookWithSecret', 'The webhook with its new secret, shown once.'),
  },
  listWebhookDeliveries: {
    tag: 'Webhooks',
    summary: 'List a webhook’s deliveries',
    query: parseDeliveryListQuery.schema,
    responses: list('WebhookDeliveryList', 'A page of deliveries with their attempts, newest first.'),
    links: {
      200: {
        getWebhookDelivery: { operationId: 'getWebhookDelivery', parameters: { id: '$response.body#/data/0/id' }, description: 'The newest delivery.' },
        replayWebhookDelivery: { operationId: 'replayWebhookDelivery', parameters: { id: '$response.body#/data/0/id' }, description: 'Send it again.' },
      },
    },
  },
  getWebhookDelivery: { tag: 'Webhooks', summary: 'Get a delivery', responses: one('WebhookDelivery', 'The delivery with every attempt.') },
  replayWebhookDelivery: {
    tag: 'Webhooks',
    summary: 'Replay a delivery',
    description: 'Sends the same event again as a new delivery (same event id, fresh signature).',
    responses: { 202: { description: 'The new delivery, pending.', body: { component: 'WebhookDelivery' } } },
    errors: ['delivery_not_replayable'],
  },
  recoverWebhook: {
    tag: 'Webhooks',
    summary: 'Recover a webhook’s failed deliveries',
    description:
      'Replays, in the background, every `exhausted` delivery of the webhook created in [`since`, `until`) whose event it has not received since: one new delivery per event (same event id). ' +
      'One recovery per window: the same `since` and `until` answers the existing recovery (200); without `until`, the same `since` within 60 seconds does. `since` must be within `EVENT_RETENTION_DAYS`.',
    body: parseRecoverWebhook.schema,
    bodyRequired: true,
    responses: {
      202: { description: 'The recovery, queued.', body: { component: 'WebhookRecovery' } },
      200: { description: 'The existing recovery of this window.', body: { component: 'WebhookRecovery' } },
    },
    errors: ['webhook_disabled'],
    links: { 202: { getWebhookRecovery: { operationId: 'getWebhookRecovery', parameters: { id: '$response.body#/id' }, description: 'Its progress.' } } },
  },
  getWebhookRecovery: { tag: 'Webhooks', summary: 'Get a recovery', responses: one('WebhookRecovery', 'The recovery and its progress.') },
  listEvents: {
    tag: 'Events',
    summary: 'List events',
    description:
      'The events of the key’s organization and environment, newest first, as their webhooks deliver them, for receivers that poll. `starting_after` pages to older events, `ending_before` to newer ones. Events older than `EVENT_RETENTION_DAYS` (default 30) are not shown. Reading spends nothing.',
    query: parseEventListQuery.schema,
    responses: list('EventList', 'A page of events, newest first.'),
    errors: ['resource_not_found'],
  },
  getEvent: { tag: 'Events', summary: 'Get an event', responses: one('Event', 'The event, as its webhook deliveries carry it.') },
} satisfies Record<string, OperationDoc>;
