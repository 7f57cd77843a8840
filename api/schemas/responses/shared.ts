// The building blocks every response component uses: a reference to another component, the list
// envelope, and the field shapes that recur (ids, timestamps, credits), so each is written once.

/** A reference to another component of the same document. */
export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** The list envelope every list route answers with: `{ object: 'list', data, has_more }`. */
export function listOf(item: string) {
  return {
    type: 'object',
    description: `A page of ${item} objects.`,
    additionalProperties: false,
    required: ['object', 'data', 'has_more'],
    properties: {
      object: { const: 'list' },
      data: { type: 'array', items: ref(item) },
      has_more: { type: 'boolean', description: 'Whether more items follow; pass the last id as `starting_after` to get them.' },
    },
  };
}

export const id = { type: 'string' };
export const timestamp = { type: 'string', format: 'date-time' };
export const nullableTimestamp = { type: ['string', 'null'], format: 'date-time' };
export const nullableString = { type: ['string', 'null'] };

/** 1 credit = $0.001; every balance and price is a whole number of credits. */
export const credits = (description: string) => ({ type: 'integer', description: `${description} (1 credit = $0.001).` });

/** An enum from a domain constant (the constant stays the one place its values are written). */
export const enumOf = (values: readonly string[], description?: string) => ({ type: 'string', enum: [...values], ...(description && { description }) });
