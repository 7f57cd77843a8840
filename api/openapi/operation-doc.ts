import type { ErrorCode } from '../errors';
import type { OpenAiOnlyCode } from '../openai/error-shape';

// What the OpenAPI document says about one route, beside its entry in the route table
// (api/route-table.ts says who may call it; this says what it takes and what it answers). Request
// schemas are the very objects the handlers' validators compile (api/schemas/*), response schemas
// are components (api/schemas/responses/), so no schema is written twice.

/** A response body: a component's name (api/schemas/responses/index.ts), or an inline schema. */
export type BodySchema = { component: string } | { schema: object };

export interface SuccessResponse {
  description: string;
  /** Absent for a response without a body (204). */
  body?: BodySchema;
  /** Other content types the same status may answer with (e.g. `text/csv` for usage). */
  alternatives?: Record<string, object>;
}

export interface OperationDoc {
  summary: string;
  description?: string;
  tag: string;
  /** The JSON request body's schema: the object the handler's validator compiles. */
  body?: object;
  /** Whether the body is required; creation bodies are, most updates are not (an empty PATCH is valid). */
  bodyRequired?: boolean;
  /** Path parameters whose values are narrower than "an id" (each: its schema), e.g. `provider`. */
  pathParams?: Record<string, object>;
  /** The query's object schema (each property one parameter): the object the handler's validator compiles. */
  query?: object;
  /** Every success status the route answers, with its body. */
  responses: Record<number, SuccessResponse>;
  /**
   * The error codes this route answers beyond those every route of its kind answers (decided by
   * its access, path parameters, body and idempotency in api/openapi/error-codes.ts).
   */
  errors?: readonly ErrorCode[];
  /** For a route in OpenAI's error shape (its table entry's `errorShape`): the codes only such routes have. */
  openAiErrors?: readonly OpenAiOnlyCode[];
  /** OpenAPI links from a success response (create → get → cancel), by status. */
  links?: Record<number, Record<string, { operationId: string; parameters: Record<string, string>; description?: string }>>;
}

/** A route that the document leaves out on purpose, and why (a provider's callback, a signed file URL). */
export interface UndocumentedRoute {
  undocumented: string;
}
