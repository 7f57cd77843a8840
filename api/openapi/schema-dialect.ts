// The document prints the validators' own schema objects. Most of ajv's draft-07 vocabulary means
// the same in OpenAPI 3.1's JSON Schema 2020-12; our one custom keyword (`maxDecimals`, see
// api/schemas/ajv.ts) is not a standard keyword, so it is printed as an `x-` extension and said in
// words, which generators and validators ignore and people read.

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** A deep copy of `schema` that any OpenAPI 3.1 tool accepts. */
export function toOpenApiSchema(schema: object): object {
  return convert(JSON.parse(JSON.stringify(schema)) as Json) as object;
}

function convert(node: Json): Json {
  if (Array.isArray(node)) return node.map(convert);
  if (node === null || typeof node !== 'object') return node;
  const out: { [key: string]: Json } = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'maxDecimals' && typeof value === 'number') {
      out['x-max-decimals'] = value;
      const said = `At most ${value} decimal places.`;
      out.description = typeof out.description === 'string' ? `${out.description} ${said}` : said;
    } else {
      out[key] = convert(value);
    }
  }
  return out;
}
