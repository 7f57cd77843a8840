import assert from 'node:assert/strict';
import { parseIpRange, type IpRange } from '../../lib/ip-ranges';
import { call, createOrganization, type TestOrganization } from '../helpers/http';
import { startExtraApi } from '../helpers/stack';

// The test client connects from 127.0.0.1.
describe('per-key IP allowlist', () => {
  let org: TestOrganization;
  let keyId: string;
  let secret: string;
  beforeEach(async () => {
    org = await createOrganization({ enterprise: true });
    const created = await call('POST', '/v1/api-keys', { key: org.liveKey, body: { name: 'restricted' } });
    keyId = created.body.id;
    secret = created.body.secret;
  });
  const setAllowlist = (ipAllowlist: string[]) => call('PATCH', `/v1/api-keys/${keyId}`, { key: org.liveKey, body: { ipAllowlist } });

  it('admits requests from inside the allowlist and refuses others with 403 ip_not_allowed', async () => {
    const set = await setAllowlist(['127.0.0.1/32', '2001:db8::/32']);
    assert.equal(set.status, 200);
    assert.deepEqual(set.body.ip_allowlist, ['127.0.0.1/32', '2001:db8::/32']);
    assert.equal((await call('GET', '/v1/api-keys', { key: secret })).status, 200);

    await setAllowlist(['10.0.0.0/8']);
    const refused = await call('GET', '/v1/api-keys', { key: secret });
    assert.equal(refused.status, 403);
    assert.equal(refused.body.error.type, 'permission_error');
    assert.equal(refused.body.error.code, 'ip_not_allowed');

    await setAllowlist([]);
    assert.equal((await call('GET', '/v1/api-keys', { key: secret })).status, 200);
  });

  it('ignores a spoofed X-Forwarded-For without TRUST_PROXY', async () => {
    await setAllowlist(['10.0.0.0/8']);
    const res = await call('GET', '/v1/api-keys', { key: secret, headers: { 'X-Forwarded-For': '10.1.2.3' } });
    assert.equal(res.status, 403);
  });

  it('believes X-Forwarded-For from a trusted proxy', async () => {
    await setAllowlist(['10.0.0.0/8']);
    const proxied = await startExtraApi({ trustedProxies: [parseIpRange('127.0.0.1/32') as IpRange] });
    const inside = await call('GET', '/v1/api-keys', { key: secret, baseUrl: proxied.url, headers: { 'X-Forwarded-For': '10.1.2.3' } });
    assert.equal(inside.status, 200);
    const outside = await call('GET', '/v1/api-keys', { key: secret, baseUrl: proxied.url, headers: { 'X-Forwarded-For': '192.0.2.1' } });
    assert.equal(outside.status, 403);
    await proxied.close();
  });

  it('answers 400 naming the bad entry for an invalid CIDR', async () => {
    for (const [list, param] of [
      [['10.0.0.0/8', '10.0.0.300/8'], 'ipAllowlist.1'],
      [['192.168.1.1'], 'ipAllowlist.0'],
      [['::1/200'], 'ipAllowlist.0'],
    ] as const) {
      const res = await setAllowlist([...list]);
      assert.equal(res.status, 400);
      assert.equal(res.body.error.code, 'validation_failed');
      assert.equal(res.body.error.param, param);
    }
  });

  it('answers 402 plan_upgrade_required outside Enterprise, but lets anyone clear an allowlist', async () => {
    const regular = await createOrganization({ enterprise: false });
    const created = await call('POST', '/v1/api-keys', { key: regular.liveKey, body: { name: 'k' } });
    const res = await call('PATCH', `/v1/api-keys/${created.body.id}`, { key: regular.liveKey, body: { ipAllowlist: ['127.0.0.1/32'] } });
    assert.equal(res.status, 402);
    assert.equal(res.body.error.code, 'plan_upgrade_required');
    const cleared = await call('PATCH', `/v1/api-keys/${created.body.id}`, { key: regular.liveKey, body: { ipAllowlist: [] } });
    assert.equal(cleared.status, 200);
  });
});
