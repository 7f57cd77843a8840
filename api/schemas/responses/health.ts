// GET /healthz (api/routes/health.ts): `ok` with 200, or 503 naming the dependency that did not answer.

import type { DependencyStatus } from '../../dependency-health';
import { enumOf } from './shared';

const DEPENDENCY_STATUSES = ['ok', 'unavailable'] as const satisfies readonly DependencyStatus[];

const Health = {
  oneOf: [
    { type: 'object', additionalProperties: false, required: ['status'], properties: { status: { const: 'ok' } } },
    {
      type: 'object',
      description: 'A dependency is down (503, with Retry-After).',
      additionalProperties: false,
      required: ['status', 'postgres', 'temporal'],
      properties: { status: { const: 'unavailable' }, postgres: enumOf(DEPENDENCY_STATUSES), temporal: enumOf(DEPENDENCY_STATUSES) },
    },
  ],
};

export const HEALTH_SCHEMAS = { Health };
