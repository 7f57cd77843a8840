import { MODALITIES, type Modality } from '../../domain/modalities';
import { USAGE_GROUPINGS, type UsageGroupBy } from '../../domain/usage-period';
import { compileValidator } from './ajv';

export type UsageFormat = 'json' | 'csv';

export interface UsageQuery {
  group_by?: UsageGroupBy;
  from?: string;
  to?: string;
  modality?: Modality;
  api_key?: string;
  format?: UsageFormat;
}

// `format: 'date'` is RFC 3339's full-date: exactly YYYY-MM-DD, and a real calendar day.
const dayField = { type: 'string', format: 'date', maxLength: 10 } as const;

/** GET /v1/usage (decisions §10). The period's defaults and bounds live in domain/usage-period.ts. */
export const parseUsageQuery = compileValidator<UsageQuery>({
  type: 'object',
  additionalProperties: false,
  properties: {
    group_by: { type: 'string', enum: [...USAGE_GROUPINGS] },
    from: dayField,
    to: dayField,
    modality: { type: 'string', enum: [...MODALITIES] },
    // A key id; a key of another organization or environment simply matches no rows.
    api_key: { type: 'string', minLength: 1, maxLength: 100 },
    format: { type: 'string', enum: ['json', 'csv'] },
  },
});
