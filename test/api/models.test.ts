import assert from 'node:assert/strict';
import { listModels } from '../../domain/catalog';
import { CAPABILITIES } from '../../domain/modalities';
import { call, createOrganization, type TestOrganization } from '../helpers/http';
import { createKeyWithRole } from '../helpers/keys';

describe('GET /v1/models', () => {
  let org: TestOrganization;
  before(async () => {
    org = await createOrganization();
  });

  it('lists the catalog with pricing, tier, capabilities and mode, to any valid key', async () => {
    const viewer = await createKeyWithRole(org.id, 'viewer', { scopes: ['generations:read'] });
    const res = await call('GET', '/v1/models', { key: viewer });
    assert.equal(res.status, 200);
    assert.equal(res.body.object, 'list');
    assert.equal(res.body.data.length, listModels().length);
    const dev = res.body.data.find((m: { slug: string }) => m.slug === 'flux-dev');
    assert.deepEqual(
      { modality: dev.modality, tier: dev.tier, mode: dev.mode, pricing: dev.pricing, studio_plus: dev.studio_plus },
      { modality: 'image', tier: 'standard', mode: 'sync', pricing: { unit: 'megapixel', credits_per_unit: 25 }, studio_plus: false },
    );
    for (const model of res.body.data) {
      for (const capability of model.capabilities) assert.ok((CAPABILITIES as readonly string[]).includes(capability));
    }
  });

  it('filters by modality, tier and capability', async () => {
    const pro = await call('GET', '/v1/models?tier=pro', { key: org.liveKey });
    assert.ok(pro.body.data.length > 0 && pro.body.data.every((m: { tier: string }) => m.tier === 'pro'));
    const i2i = await call('GET', '/v1/models?modality=image&capability=image_to_image', { key: org.liveKey });
    assert.deepEqual(i2i.body.data.map((m: { slug: string }) => m.slug).sort(), ['flux-1.1-pro-ultra', 'flux-dev']);
    const none = await call('GET', '/v1/models?modality=video', { key: org.liveKey });
    assert.deepEqual(none.body.data, []);
  });

  it('answers 400 for an unknown filter value or parameter, and 401 without a key', async () => {
    for (const [q, param] of [['modality=hologram', 'modality'], ['tier=ultra', 'tier'], ['capability=flying', 'capability'], ['sort=price', 'sort']]) {
      const res = await call('GET', `/v1/models?${q}`, { key: org.liveKey });
      assert.equal(res.status, 400, q);
      assert.equal(res.body.error.param, param);
    }
    assert.equal((await call('GET', '/v1/models')).status, 401);
  });
});
