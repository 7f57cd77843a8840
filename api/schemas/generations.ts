import { GENERATION_STATUSES } from '../../domain/generation-status';
import { MODALITIES, type Modality } from '../../domain/modalities';
import type { GenerationStatus } from '../../domain/generation-status';
import { compileValidator } from './ajv';
import { LIST_QUERY_PROPERTIES, type ListQuery } from './list-query';

export interface GenerationListQuery extends ListQuery {
  modality?: Modality;
  status?: GenerationStatus;
}

/** GET /v1/generations: Stripe-style pages (decisions §5) with modality and status filters. */
export const parseGenerationListQuery = compileValidator<GenerationListQuery>({
  type: 'object',
  additionalProperties: false,
  properties: {
    ...LIST_QUERY_PROPERTIES,
    modality: { type: 'string', enum: [...MODALITIES] },
    status: { type: 'string', enum: [...GENERATION_STATUSES] },
  },
});
