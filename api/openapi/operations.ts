import type { RouteName } from '../route-table';
import type { OperationDoc, UndocumentedRoute } from './operation-doc';
import { ACCOUNT_OPERATIONS } from './operations-account';
import { GENERATION_OPERATIONS } from './operations-generation';
import { OPENAI_OPERATIONS } from './operations-openai';
import { OPERATOR_OPERATIONS } from './operations-operator';

/**
 * What the document says of every route in the table: the type makes a route without an entry (or
 * an entry without a route) a compile error, so no route ships undocumented by accident.
 */
export const OPERATIONS: Record<RouteName, OperationDoc | UndocumentedRoute> = {
  ...GENERATION_OPERATIONS,
  ...ACCOUNT_OPERATIONS,
  ...OPERATOR_OPERATIONS,
  ...OPENAI_OPERATIONS,
} satisfies Record<RouteName, OperationDoc | UndocumentedRoute>;
