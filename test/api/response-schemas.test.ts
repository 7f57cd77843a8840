import assert from 'node:assert/strict';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { RESPONSE_SCHEMAS, WEBHOOK_EVENT_COMPONENTS } from '../../api/schemas/responses';
import { WEBHOOK_EVENT_TYPES } from '../../domain/webhook-events';

// The response components must be valid JSON Schema 2020-12 (OpenAPI 3.1's dialect) under ajv's
// strict mode, resolve every $ref among themselves, and be closed objects, so a field a presenter
// adds or drops fails the response checks instead of passing unnoticed.

const DOCUMENT_ID = 'https://schemas.test/openapi.json';

function compileAll() {
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  addFormats(ajv);
  // `components` is where OpenAPI keeps them; known to ajv as a plain container so `#/components/schemas/X` resolves.
  ajv.addVocabulary(['components']);
  ajv.addSchema({ $id: DOCUMENT_ID, components: { schemas: RESPONSE_SCHEMAS } });
  return (name: string): ValidateFunction => {
    const validate = ajv.getSchema<unknown>(`${DOCUMENT_ID}#/components/schemas/${name}`);
    assert.ok(validate, `component ${name} does not compile`);
    return validate as ValidateFunction;
  };
}

/** Every subschema, with its path, for the structural checks. */
function* walk(node: unknown, path: string): Generator<[string, Record<string, unknown>]> {
  if (Array.isArray(node)) {
    for (const [i, item] of node.entries()) yield* walk(item, `${path}/${i}`);
  } else if (node && typeof node === 'object') {
    yield [path, node as Record<string, unknown>];
    for (const [key, value] of Object.entries(node)) yield* walk(value, `${path}/${key}`);
  }
}

describe('response schemas', () => {
  it('compiles every component with Ajv2020 in strict mode', () => {
    const validatorOf = compileAll();
    for (const name of Object.keys(RESPONSE_SCHEMAS)) validatorOf(name);
  });

  it('points every $ref at an existing component', () => {
    const dangling = [];
    for (const [path, node] of walk(RESPONSE_SCHEMAS, '')) {
      if (typeof node.$ref !== 'string') continue;
      const match = /^#\/components\/schemas\/([A-Za-z0-9]+)$/.exec(node.$ref);
      if (!match || !(match[1]! in RESPONSE_SCHEMAS)) dangling.push(`${path}: ${node.$ref}`);
    }
    assert.deepEqual(dangling, []);
  });

  it('closes every object with fixed properties, requires only properties it has, and uses no `nullable`', () => {
    const problems = [];
    for (const [path, node] of walk(RESPONSE_SCHEMAS, '')) {
      // OpenAPI 3.0's `nullable` is not 2020-12 (ajv knows it, so strict mode would let it pass).
      if ('nullable' in node && !path.endsWith('/properties')) problems.push(`${path}: nullable (use type: [T, 'null'])`);
      if (!node.properties || typeof node.properties !== 'object' || path.endsWith('/properties')) continue;
      if (node.additionalProperties !== false) problems.push(`${path}: additionalProperties is not false`);
      for (const field of (node.required as string[] | undefined) ?? []) if (!(field in node.properties)) problems.push(`${path}: requires unknown ${field}`);
    }
    assert.deepEqual(problems, []);
  });

  it('refuses a body with a field its presenter does not emit, or without one it always emits', () => {
    const validate = compileAll()('DeletedWebhook');
    assert.equal(validate({ id: 'wh_1', object: 'webhook', deleted: true }), true);
    assert.equal(validate({ id: 'wh_1', object: 'webhook', deleted: true, url: 'https://example.com' }), false);
    assert.equal(validate({ object: 'webhook', deleted: true }), false);
  });

  it('names a component for every webhook event type, whose `type` is that event', () => {
    const validatorOf = compileAll();
    assert.deepEqual(Object.keys(WEBHOOK_EVENT_COMPONENTS).sort(), [...WEBHOOK_EVENT_TYPES].sort());
    for (const [type, name] of Object.entries(WEBHOOK_EVENT_COMPONENTS)) {
      const validate = validatorOf(name);
      const envelope = { id: 'evt_1', type, created_at: new Date().toISOString(), data: {} };
      validate(envelope);
      assert.ok(!validate.errors?.some((e) => e.instancePath === '/type'), `${name} does not accept type ${type}`);
      validate({ ...envelope, type: 'other.event' });
      assert.ok(
        validate.errors?.some((e) => e.instancePath === '/type'),
        `${name} accepts another type`,
      );
    }
  });
});
