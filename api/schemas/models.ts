import type { Tier } from '../../domain/catalog';
import { CAPABILITIES, MODALITIES, type Capability, type Modality } from '../../domain/modalities';
import { compileValidator } from './ajv';

export interface ModelsQuery {
  modality?: Modality;
  tier?: Tier;
  capability?: Capability;
}

export const parseModelsQuery = compileValidator<ModelsQuery>({
  type: 'object',
  additionalProperties: false,
  properties: {
    modality: { type: 'string', enum: [...MODALITIES] },
    tier: { type: 'string', enum: ['fast', 'standard', 'pro'] },
    capability: { type: 'string', enum: [...CAPABILITIES] },
  },
});
