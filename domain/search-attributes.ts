import { defineSearchAttributeKey, SearchAttributeType, type SearchAttributePair, type SearchAttributeUpdatePair } from '@temporalio/common';
import type { Environment } from './generation-status';
import type { Modality } from './modalities';

// The Temporal search attributes an operator finds a job by (docs/operations.md, "Finding a job in
// the Temporal UI"), defined once: the API's and the comparison workflow's starts set them, the
// workflows upsert the status and provider, and every topology registers exactly this list (the dev
// server's start flags, `npm run stack:prod` through the operator service, compose's admin-tools
// job). All are Keyword: exact matches on ids and names, which is what an operator filters by.

export const SEARCH_ATTRIBUTES = {
  organizationId: defineSearchAttributeKey('OrganizationId', SearchAttributeType.KEYWORD),
  /** `live` or `test`. */
  environment: defineSearchAttributeKey('Environment', SearchAttributeType.KEYWORD),
  modality: defineSearchAttributeKey('Modality', SearchAttributeType.KEYWORD),
  /** The model's slug; absent on a comparison, which runs several. */
  model: defineSearchAttributeKey('Model', SearchAttributeType.KEYWORD),
  /** On a comparison and on each of its children. */
  comparisonId: defineSearchAttributeKey('ComparisonId', SearchAttributeType.KEYWORD),
  /** The subscription a webhook delivery is sent for. */
  webhookId: defineSearchAttributeKey('WebhookId', SearchAttributeType.KEYWORD),
  /** A generation's status (a comparison's, on a comparison), upserted as it moves. */
  generationStatus: defineSearchAttributeKey('GenerationStatus', SearchAttributeType.KEYWORD),
  /** The provider of the route running the job, upserted on each route a generation tries. */
  provider: defineSearchAttributeKey('Provider', SearchAttributeType.KEYWORD),
} as const;

/** Each attribute as the CLI spells it (`temporal server start-dev --search-attribute Name=Keyword`). */
export const SEARCH_ATTRIBUTE_SPECS: readonly string[] = Object.values(SEARCH_ATTRIBUTES).map((key) => `${key.name}=${cliTypeName(key.type)}`);

/** The names of every attribute, for the registrations that take names and types apart. */
export const SEARCH_ATTRIBUTE_NAMES: readonly string[] = Object.values(SEARCH_ATTRIBUTES).map((key) => key.name);

function cliTypeName(type: SearchAttributeType): string {
  return type.charAt(0) + type.slice(1).toLowerCase();
}

interface Owner {
  organizationId: string;
  environment: Environment;
}

/** A generation's attributes at its start: queued, as the API answers it. */
export function generationSearchAttributes(job: Owner & { modality: Modality; model: string; comparisonId?: string }): SearchAttributePair[] {
  return [
    ...ownerAttributes(job),
    { key: SEARCH_ATTRIBUTES.modality, value: job.modality },
    { key: SEARCH_ATTRIBUTES.model, value: job.model },
    ...(job.comparisonId === undefined ? [] : [{ key: SEARCH_ATTRIBUTES.comparisonId, value: job.comparisonId }]),
    { key: SEARCH_ATTRIBUTES.generationStatus, value: 'queued' },
  ];
}

/** A comparison's attributes at its start. */
export function comparisonSearchAttributes(comparison: Owner & { modality: Modality; comparisonId: string }): SearchAttributePair[] {
  return [
    ...ownerAttributes(comparison),
    { key: SEARCH_ATTRIBUTES.modality, value: comparison.modality },
    { key: SEARCH_ATTRIBUTES.comparisonId, value: comparison.comparisonId },
    { key: SEARCH_ATTRIBUTES.generationStatus, value: 'queued' },
  ];
}

/** A webhook delivery's attributes. */
export function deliverySearchAttributes(delivery: Owner & { webhookId: string }): SearchAttributePair[] {
  return [...ownerAttributes(delivery), { key: SEARCH_ATTRIBUTES.webhookId, value: delivery.webhookId }];
}

/** The status a job moved to; null removes it (a request refused admission never became a job). */
export function statusUpdate(status: string | null): SearchAttributeUpdatePair {
  return { key: SEARCH_ATTRIBUTES.generationStatus, value: status };
}

export function providerUpdate(provider: string): SearchAttributeUpdatePair {
  return { key: SEARCH_ATTRIBUTES.provider, value: provider };
}

function ownerAttributes(owner: Owner): SearchAttributePair[] {
  return [
    { key: SEARCH_ATTRIBUTES.organizationId, value: owner.organizationId },
    { key: SEARCH_ATTRIBUTES.environment, value: owner.environment },
  ];
}
