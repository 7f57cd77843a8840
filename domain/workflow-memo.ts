import type { Environment } from './generation-status';
import type { Modality } from './modalities';

// What a job's workflow carries for an operator looking at it in the Temporal UI: a memo with a
// short summary of the request and a one-line static summary. Neither is searchable, neither is
// encrypted, and both outlive the job in Temporal's history: so they hold names and ids, and at
// most a short excerpt of the prompt (URLs in it replaced, since a URL may carry a token), never a
// whole prompt, an input's URL, a key or a secret.

/** The longest prompt excerpt a memo carries, in characters, the ellipsis included. */
export const PROMPT_EXCERPT_MAX_CHARS = 80;

/** The start of a prompt, on one line, its URLs replaced by `<url>`, at most PROMPT_EXCERPT_MAX_CHARS long. */
export function promptExcerpt(prompt: string): string {
  const oneLine = prompt
    .replace(/\b[a-z][a-z0-9+.-]*:\/\/\S+/gi, '<url>')
    .replace(/\s+/g, ' ')
    .trim();
  const chars = [...oneLine];
  return chars.length <= PROMPT_EXCERPT_MAX_CHARS ? oneLine : `${chars.slice(0, PROMPT_EXCERPT_MAX_CHARS - 1).join('')}…`;
}

interface Job {
  organizationId: string;
  environment: Environment;
  modality: Modality;
  model: string;
  prompt: string;
  /** The API route the request came in on, e.g. `/v1/images/generations`; a comparison's child has its comparison's. */
  endpoint?: string;
  comparisonId?: string;
}

export function generationMemo(job: Job): Record<string, string> {
  return {
    ...(job.endpoint !== undefined && { endpoint: job.endpoint }),
    modality: job.modality,
    model: job.model,
    ...(job.comparisonId !== undefined && { comparison_id: job.comparisonId }),
    prompt_excerpt: promptExcerpt(job.prompt),
  };
}

export function generationSummary(job: Omit<Job, 'prompt' | 'endpoint'>): string {
  const of = job.comparisonId === undefined ? '' : ` in ${job.comparisonId}`;
  return `${job.modality} on ${job.model}${of} for ${job.organizationId} (${job.environment})`;
}

interface Comparison {
  organizationId: string;
  environment: Environment;
  modality: Modality;
  models: string[];
  prompt: string;
  endpoint: string;
}

export function comparisonMemo(comparison: Comparison): Record<string, string> {
  return { endpoint: comparison.endpoint, modality: comparison.modality, models: comparison.models.join(','), prompt_excerpt: promptExcerpt(comparison.prompt) };
}

export function comparisonSummary(comparison: Omit<Comparison, 'prompt' | 'endpoint'>): string {
  return `${comparison.modality} comparison of ${comparison.models.join(', ')} for ${comparison.organizationId} (${comparison.environment})`;
}

interface Delivery {
  organizationId: string;
  environment: Environment;
  webhookId: string;
  eventType: string;
  eventId: string;
}

export function deliveryMemo(delivery: Delivery): Record<string, string> {
  return { event_type: delivery.eventType, event_id: delivery.eventId, webhook_id: delivery.webhookId };
}

export function deliverySummary(delivery: Delivery): string {
  return `${delivery.eventType} to ${delivery.webhookId} for ${delivery.organizationId} (${delivery.environment})`;
}
