// A few bodies are checked in two steps: ajv for the shape, then a rule ajv cannot word well (a
// model named twice, a key pasted with a space). The OpenAPI document must still say the whole rule,
// so it prints the validator's own schema with that one property widened or narrowed: derived from
// the compiled object, never a second copy of it.

type Schema = { properties: Record<string, object> };

/** `schema` with property `name` merged with `extra`, or replaced by what `extra` makes of it. */
export function withProperty(schema: object, name: string, extra: object | ((property: object) => object)): object {
  const { properties } = schema as Schema;
  const property = properties[name];
  if (!property) throw new Error(`withProperty: the schema has no property '${name}'`);
  const changed = typeof extra === 'function' ? extra(property) : { ...property, ...extra };
  return { ...schema, properties: { ...properties, [name]: changed } };
}
