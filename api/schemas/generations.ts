import { GENERATION_STATUSES } from '../../domain/generation-status';
import { MODALITIES, type Modality } from '../../domain/modalities';
import type { GenerationStatus } from '../../domain/generation-status';
import { compileValidator } from './ajv';

export interface GenerationListQuery {
  limit?: string;
  starting_after?: string;
  modality?: Modality;
  status?: GenerationStatus;
}

/** GET /v1/generations: Stripe-style pages (decisions §5) with modality and status filters. */
export const parseGenerationListQuery = compileValidator<GenerationListQuery>({
  type: 'object',
  additionalProperties: false,
  properties: {
    limit: { type: 'string', pattern: '^(100|[1-9][0-9]?)$' },
    starting_after: { type: 'string', minLength: 1, maxLength: 100 },
    modality: { type: 'string', enum: [...MODALITIES] },
    status: { type: 'string', enum: [...GENERATION_STATUSES] },
  },
});
