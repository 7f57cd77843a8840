// `max_credits` in the documented body of every creation endpoint. The API takes it off the body
// before the endpoint's schema reads the rest (api/admission/max-credits.ts), so the endpoints'
// validators do not list it; the document adds it to each of their schemas here, once.

const MAX_CREDITS_FIELD = {
  type: 'integer',
  minimum: 1,
  description:
    'A price ceiling: the most credits this request may reserve. Over it, the request is refused 402 max_cost_exceeded and nothing is reserved; at or under it, it runs as without.',
};

/** A creation body's schema with `max_credits` among its properties. */
export function withMaxCredits(schema: object): object {
  const { properties = {} } = schema as { properties?: Record<string, object> };
  return { ...schema, properties: { ...properties, max_credits: MAX_CREDITS_FIELD } };
}
