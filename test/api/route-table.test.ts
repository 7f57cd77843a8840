import assert from 'node:assert/strict';
import { ROUTES, type RouteSpec } from '../../api/route-table';
import { createRouter } from '../../api/routes';
import { stack } from '../helpers/stack';

const key = (method: string, path: string | RegExp) => `${method} ${String(path)}`;

describe('route table', () => {
  const registered = () => createRouter(stack().apiDeps).stack.flatMap((layer) => layer.methods.filter((m) => m !== 'HEAD').map((method) => key(method, layer.path)));
  const listed = (Object.values(ROUTES) as RouteSpec[]).map((r) => key(r.method, r.path));

  it('lists every registered route, so none can skip authorization', () => {
    const missing = registered().filter((r) => !listed.includes(r));
    assert.deepEqual(missing, [], `routes registered outside api/route-table.ts: ${missing.join(', ')}`);
  });

  it('registers every listed route exactly once', () => {
    const routes = registered();
    for (const route of listed) assert.equal(routes.filter((r) => r === route).length, 1, route);
  });

  it('marks every credit-consuming route as needing a write scope and at least the developer role', () => {
    for (const [name, spec] of Object.entries(ROUTES) as [string, RouteSpec][]) {
      if (spec.access.kind !== 'api_key' || !spec.access.creditConsuming) continue;
      assert.match(String(spec.access.scope ?? ''), /:write$|^any_modality_write$/, name);
      assert.notEqual(spec.access.minRole, 'viewer', name);
    }
  });

  it('gives every credit-consuming route Idempotency-Key handling, and only to POSTs of a key or the operator', () => {
    for (const [name, spec] of Object.entries(ROUTES) as [string, RouteSpec][]) {
      if (spec.access.kind === 'api_key' && spec.access.creditConsuming) assert.ok(spec.idempotency, name);
      if (!spec.idempotency) continue;
      assert.equal(spec.method, 'POST', name);
      assert.ok(spec.access.kind === 'api_key' || spec.access.kind === 'admin', name);
    }
  });
});
