import type { Knex } from 'knex';
import { createAdmissionClaimsRepo } from './admission-claims';
import { createApiKeysRepo } from './api-keys';
import { createComparisonsRepo } from './comparisons';
import { createEventsRepo } from './events';
import { createGenerationsRepo } from './generations';
import { createIdempotencyKeysRepo } from './idempotency-keys';
import { createOrganizationsRepo } from './organizations';
import { createOutputExpiriesRepo } from './output-expiries';
import { createProviderCredentialsRepo } from './provider-credentials';
import { createUploadsRepo } from './uploads';
import { createUsageRepo } from './usage';
import { createUsersRepo } from './users';
import { createWebhookDeliveriesRepo } from './webhook-deliveries';
import { createWebhookRecoveriesRepo } from './webhook-recoveries';
import { createWebhooksRepo } from './webhooks';

export function createRepos(knex: Knex) {
  return {
    organizations: createOrganizationsRepo(knex),
    users: createUsersRepo(knex),
    apiKeys: createApiKeysRepo(knex),
    generations: createGenerationsRepo(knex),
    comparisons: createComparisonsRepo(knex),
    admissionClaims: createAdmissionClaimsRepo(knex),
    events: createEventsRepo(knex),
    idempotencyKeys: createIdempotencyKeysRepo(knex),
    uploads: createUploadsRepo(knex),
    webhooks: createWebhooksRepo(knex),
    webhookDeliveries: createWebhookDeliveriesRepo(knex),
    webhookRecoveries: createWebhookRecoveriesRepo(knex),
    usage: createUsageRepo(knex),
    providerCredentials: createProviderCredentialsRepo(knex),
    outputExpiries: createOutputExpiriesRepo(knex),
  };
}

export type Repos = ReturnType<typeof createRepos>;
