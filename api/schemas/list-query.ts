import { compileValidator } from './ajv';

// The page parameters every list endpoint takes (decisions §5, Stripe-style): `limit` and
// `starting_after`. One definition, so every list bounds them alike; an endpoint with filters of its
// own (generations, webhook deliveries) spreads LIST_QUERY_PROPERTIES into its schema.

export interface ListQuery {
  limit?: string;
  starting_after?: string;
}

/** The schemas of the page parameters; query values arrive as strings. */
export const LIST_QUERY_PROPERTIES = {
  limit: { type: 'string', pattern: '^(100|[1-9][0-9]?)$' },
  starting_after: { type: 'string', minLength: 1, maxLength: 100 },
} as const;

/** A list endpoint's query with no filter: only the page parameters. */
export const parseListQuery = compileValidator<ListQuery>({
  type: 'object',
  additionalProperties: false,
  properties: LIST_QUERY_PROPERTIES,
});
