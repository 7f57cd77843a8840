import { COMPARISON_MODELS } from '../../domain/plans';
import { ApiError } from '../errors';
import { compileValidator } from './ajv';
import { withProperty } from './documented-schema';
import { MAX_PROMPT_LENGTH } from './images';

export interface ComparisonRequest {
  prompt: string;
  models: string[];
  params_shared?: Record<string, unknown>;
}

// Spec §4 POST /v1/comparisons. What `params_shared` may hold depends on the modality: each model's
// request is checked against that modality's own schema (api/admission/comparison-requests.ts).
const parseShape = compileValidator<ComparisonRequest>({
  type: 'object',
  additionalProperties: false,
  required: ['prompt', 'models'],
  properties: {
    prompt: { type: 'string', minLength: 1, maxLength: MAX_PROMPT_LENGTH },
    models: {
      type: 'array',
      minItems: COMPARISON_MODELS.min,
      maxItems: COMPARISON_MODELS.max,
      items: { type: 'string', minLength: 1, maxLength: 200 },
    },
    params_shared: { type: 'object' },
  },
});

/** The body's schema as the OpenAPI document prints it: the shape's, with the models' distinctness said. */
export const COMPARISON_REQUEST_SCHEMA = withProperty(parseShape.schema, 'models', { uniqueItems: true });

/** The request's shape; 400 validation_failed for a malformed one, or a model named twice. */
export function parseComparisonRequest(body: unknown): ComparisonRequest {
  const request = parseShape(body);
  const seen = new Set<string>();
  request.models.forEach((slug, i) => {
    if (seen.has(slug)) {
      throw new ApiError('validation_failed', `Invalid models: '${slug}' is listed twice; a comparison sends the prompt to distinct models.`, {
        param: `models.${i}`,
      });
    }
    seen.add(slug);
  });
  return request;
}
