import { GENERATION_STATUSES } from '../../domain/generation-status';
import { MODALITIES, type Modality } from '../../domain/modalities';
import type { GenerationStatus } from '../../domain/generation-status';
import { compileValidator } from './ajv';
import { LIST_QUERY_PROPERTIES, type ListQuery } from './list-query';

export interface GenerationListQuery extends ListQuery {
  modality?: Modality;
  status?: GenerationStatus;
  model?: string;
  api_key?: string;
}

/** GET /v1/generations: Stripe-style pages (decisions §5) with modality, status, model and API key filters. */
export const parseGenerationListQuery = compileValidator<GenerationListQuery>({
  type: 'object',
  additionalProperties: false,
  properties: {
    ...LIST_QUERY_PROPERTIES,
    modality: { type: 'string', enum: [...MODALITIES] },
    status: { type: 'string', enum: [...GENERATION_STATUSES] },
    model: { type: 'string', minLength: 1, maxLength: 200, description: 'Only generations of this model id (as `GET /v1/models` names it).' },
    api_key: { type: 'string', minLength: 1, maxLength: 100, description: 'Only generations created with this API key (its id, `key_…`).' },
  },
});
