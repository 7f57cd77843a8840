import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { buildOpenApiDocument, openApiDocumentText } from '../../api/openapi/build-document';
import { OPERATIONS } from '../../api/openapi/operations';
import { OPENAPI_JSON_PATH } from '../../api/openapi/write-document';
import { ROUTES, type RouteName } from '../../api/route-table';
import { responseProblem } from '../helpers/openapi-response-check';
import { call, createOrganization } from '../helpers/http';
import { stack } from '../helpers/stack';

type Document = {
  openapi: string;
  paths: Record<string, Record<string, { operationId: string; responses: Record<string, unknown>; security: unknown[] }>>;
  webhooks: Record<string, unknown>;
};

describe('the OpenAPI document', () => {
  const document = () => buildOpenApiDocument() as Document;
  const operations = () => Object.values(document().paths).flatMap((methods) => Object.values(methods));

  it('is served at GET /openapi.json without a key, byte for byte what the code builds', async () => {
    const res = await fetch(`${stack().apiUrl}/openapi.json`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
    assert.equal(await res.text(), openApiDocumentText());
  });

  it('is committed as openapi.json exactly as the code builds it (run `npm run openapi` after changing a route or schema)', () => {
    assert.equal(readFileSync(OPENAPI_JSON_PATH, 'utf8'), openApiDocumentText(), 'openapi.json is stale: run `npm run openapi` and commit it');
  });

  it('passes Redocly’s recommended rules with no error and no warning', async () => {
    const { createConfig, lintFromString } = await import('@redocly/openapi-core');
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({ source: openApiDocumentText(), absoluteRef: OPENAPI_JSON_PATH, config });
    const listed = problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location.map((l) => l.pointer).join(', ')}`);
    assert.deepEqual(listed, []);
  });

  it('documents every route of the table with at least one 2xx answer, except the ones it names a reason to leave out', () => {
    const ids = new Set(operations().map((o) => o.operationId));
    for (const name of Object.keys(ROUTES) as RouteName[]) {
      const doc = OPERATIONS[name];
      if ('undocumented' in doc) {
        assert.ok(doc.undocumented.length > 10, `${name}: say why it is left out`);
        assert.ok(!ids.has(name), name);
        continue;
      }
      assert.ok(ids.has(name), `${name} is missing from the document`);
      assert.ok(
        Object.keys(doc.responses).some((status) => /^2\d\d$/.test(status)),
        `${name} has no success response`,
      );
    }
    assert.equal(ids.size, operations().length, 'operation ids are unique');
  });

  it('puts the key routes under the ApiKey scheme and the operator routes under AdminToken, with 401 documented for both', () => {
    const doc = document();
    const image = doc.paths['/v1/images']!.post!;
    assert.deepEqual(image.security, [{ ApiKey: [] }]);
    assert.ok(image.responses['401'] && image.responses['402'] && image.responses['429']);
    const organization = doc.paths['/admin/v1/organizations']!.post!;
    assert.deepEqual(organization.security, [{ AdminToken: [] }]);
    assert.deepEqual(doc.paths['/healthz']!.get!.security, []);
    assert.deepEqual(Object.keys(doc.webhooks).sort(), [
      'comparison.completed',
      'generation.completed',
      'generation.failed',
      'usage.anomaly_detected',
      'usage.budget_threshold',
      'webhook.delivery_exhausted',
      'webhook.endpoint_disabled',
    ]);
  });
});

describe('the response check (test/helpers/openapi-response-check.ts)', () => {
  it('passes a real response and names what is wrong with a broken one', async () => {
    const org = await createOrganization();
    const res = await call('GET', '/v1/balance', { key: org.liveKey });
    const headers = Object.fromEntries(res.headers.entries());
    assert.equal(responseProblem('GET', '/v1/balance', res.status, 'application/json', headers, res.body), undefined);
    const { object: _dropped, ...withoutObject } = res.body as Record<string, unknown>;
    assert.match(responseProblem('GET', '/v1/balance', 200, 'application/json', headers, withoutObject) ?? '', /does not match its schema/);
    assert.match(responseProblem('GET', '/v1/balance', 418, 'application/json', headers, res.body) ?? '', /status 418 is not documented/);
    assert.match(responseProblem('GET', '/v1/balance', 200, 'text/html', headers, '<p>') ?? '', /content type 'text\/html' is not documented/);
    const wrongCode = { error: { type: 'invalid_request_error', code: 'last_owner', message: 'x', request_id: 'req_1' } };
    assert.match(responseProblem('GET', '/v1/balance', 409, 'application/json', headers, wrongCode) ?? '', /status 409 is not documented/);
    const undocumentedCode = { error: { type: 'invalid_request_error', code: 'unknown_model', message: 'x', request_id: 'req_1' } };
    assert.match(responseProblem('GET', '/v1/balance', 400, 'application/json', headers, undocumentedCode) ?? '', /does not match its schema/);
  });

  it('requires Retry-After on a 429', () => {
    const body = { error: { type: 'rate_limit_error', code: 'rate_limited', message: 'x', request_id: 'req_1' } };
    assert.match(responseProblem('GET', '/v1/balance', 429, 'application/json', {}, body) ?? '', /Retry-After/);
    assert.equal(responseProblem('GET', '/v1/balance', 429, 'application/json', { 'retry-after': '3' }, body), undefined);
  });
});
