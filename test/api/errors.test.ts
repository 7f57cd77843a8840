import assert from 'node:assert/strict';
import { MAX_BODY_BYTES } from '../../api/middleware/json-body';
import { call, createOrganization, type TestOrganization } from '../helpers/http';
import { assertLedgerBalanced } from '../helpers/ledger';
import { startExtraApi } from '../helpers/stack';

describe('error responses', () => {
  let org: TestOrganization;
  before(async () => {
    org = await createOrganization({ credits: 1000 });
  });

  it('answers 413 payload_too_large above 1 MiB, charging nothing', async () => {
    const prompt = 'a'.repeat(MAX_BODY_BYTES);
    const res = await call('POST', '/v1/images', { key: org.liveKey, body: { model: 'flux-dev', prompt } });
    assert.equal(res.status, 413);
    assert.equal(res.body.error.code, 'payload_too_large');
    assert.deepEqual(await assertLedgerBalanced(org.id), { availableCredits: 1000, reservedCredits: 0 });
  });

  it('answers 415 unsupported_media_type for a body that is not JSON', async () => {
    const res = await call('POST', '/v1/images', {
      key: org.liveKey,
      rawBody: 'model=flux-dev&prompt=x',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    assert.equal(res.status, 415);
    assert.equal(res.body.error.code, 'unsupported_media_type');
  });

  it('answers 400 validation_failed for malformed JSON', async () => {
    const res = await call('POST', '/v1/images', { key: org.liveKey, rawBody: '{"model":', headers: { 'Content-Type': 'application/json' } });
    assert.equal(res.status, 400);
    assert.equal(res.body.error.code, 'validation_failed');
  });

  it('answers a JSON 404 for unknown routes, with a request id', async () => {
    for (const [method, path] of [
      ['GET', '/nope'],
      ['GET', '/v1/images'],
      ['DELETE', '/v1/generations/gen_x'],
      ['GET', '/admin/v1/nope'],
    ]) {
      const res = await call(method as string, path as string, { key: org.liveKey });
      assert.equal(res.status, 404, `${method} ${path}`);
      assert.equal(res.body.error.code, 'resource_not_found');
      assert.match(res.body.error.message, /Unrecognized request URL/);
      assert.equal(res.headers.get('x-request-id'), res.body.error.request_id);
    }
  });

  it('puts a distinct X-Request-Id on every response, successes included', async () => {
    const a = await call('GET', '/healthz');
    const b = await call('GET', '/healthz');
    assert.equal(a.status, 200);
    assert.deepEqual(a.body, { status: 'ok' });
    assert.match(a.headers.get('x-request-id') ?? '', /^req_/);
    assert.notEqual(a.headers.get('x-request-id'), b.headers.get('x-request-id'));
  });

  it('answers 500 internal_error without the underlying message when something unexpected breaks', async () => {
    const api = await startExtraApi({
      principals: {
        find: async () => {
          throw new Error('SELECT secret FROM t');
        },
        settle: async () => undefined,
      },
    });
    const res = await call('GET', '/v1/generations/gen_x', { key: org.liveKey, baseUrl: api.url });
    assert.equal(res.status, 500);
    assert.equal(res.body.error.type, 'api_error');
    assert.equal(res.body.error.code, 'internal_error');
    assert.ok(!JSON.stringify(res.body).includes('SELECT'));
    assert.ok(!JSON.stringify(res.body).includes('at '));
    await api.close();
  });
});
