import assert from 'node:assert/strict';
import { listModels, type ModelEntry } from '../../domain/catalog';
import { CAPABILITIES, MODALITIES } from '../../domain/modalities';
import { call, createOrganization, type HttpResult, type TestOrganization } from '../helpers/http';
import { createKeyWithRole } from '../helpers/keys';

interface WireModel {
  slug: string;
  modality: string;
  mode: string;
  limits: Record<string, unknown>;
  [field: string]: unknown;
}

const TIERS = ['fast', 'standard', 'pro'] as const;
const WIRE_FIELDS = ['object', 'slug', 'name', 'provider', 'modality', 'tier', 'capabilities', 'pricing', 'studio_plus', 'mode', 'limits', 'available', 'providers'];

const slugsOf = (res: HttpResult<{ data: WireModel[] }>) => res.body.data.map((m) => m.slug).sort();
const expected = (matches: (m: ModelEntry) => boolean) =>
  listModels()
    .filter(matches)
    .map((m) => m.slug)
    .sort();
/** camelCase to snake_case, written independently of the presenter so the two check each other. */
const snake = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

function keysOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(keysOf);
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, inner]) => [key, ...keysOf(inner)]);
}

describe('GET /v1/models', () => {
  let org: TestOrganization;
  before(async () => {
    org = await createOrganization();
  });
  const list = (query: string) => call<{ object: string; data: WireModel[] }>('GET', `/v1/models${query}`, { key: org.liveKey });

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
  });

  it('filters by modality, tier or capability to exactly the matching entries', async () => {
    for (const modality of MODALITIES) {
      const res = await list(`?modality=${modality}`);
      assert.equal(res.status, 200);
      assert.deepEqual(
        slugsOf(res),
        expected((m) => m.modality === modality),
        modality,
      );
      assert.ok(res.body.data.length >= 5, modality);
    }
    for (const tier of TIERS) {
      assert.deepEqual(
        slugsOf(await list(`?tier=${tier}`)),
        expected((m) => m.tier === tier),
        tier,
      );
    }
    for (const capability of CAPABILITIES) {
      const res = await list(`?capability=${capability}`);
      assert.deepEqual(
        slugsOf(res),
        expected((m) => m.capabilities.includes(capability)),
        capability,
      );
      assert.ok(res.body.data.length > 0, capability);
    }
  });

  it('combines filters, each narrowing the others', async () => {
    const i2i = slugsOf(await list('?modality=image&capability=image_to_image'));
    assert.deepEqual(
      i2i,
      expected((m) => m.modality === 'image' && m.capabilities.includes('image_to_image')),
    );
    assert.ok(i2i.includes('flux-dev') && i2i.includes('flux-1.1-pro-ultra'));

    const fastText = slugsOf(await list('?modality=video&tier=fast&capability=text_to_video'));
    assert.deepEqual(
      fastText,
      expected((m) => m.modality === 'video' && m.tier === 'fast' && m.capabilities.includes('text_to_video')),
    );
    assert.ok(fastText.length > 0);

    const textAvatars = await list('?capability=text_to_video&modality=avatar');
    assert.ok(textAvatars.body.data.length > 0 && textAvatars.body.data.every((m) => m.modality === 'avatar'));

    const none = await list('?modality=chat&capability=text_to_image');
    assert.equal(none.status, 200);
    assert.deepEqual(none.body.data, []);
  });

  it('answers 400 validation_failed naming the parameter for a bad filter value or an unknown parameter', async () => {
    const cases = [
      ['modality=hologram', 'modality'],
      ['tier=ultra', 'tier'],
      ['capability=flying', 'capability'],
      ['modality=Image', 'modality'],
      ['modality=image&modality=video', 'modality'],
      ['sort=price', 'sort'],
    ];
    for (const [query, param] of cases) {
      const res = await call<{ error: { code: string; param: string } }>('GET', `/v1/models?${query}`, { key: org.liveKey });
      assert.equal(res.status, 400, query);
      assert.deepEqual([res.body.error.code, res.body.error.param], ['validation_failed', param], query);
    }
    assert.equal((await call('GET', '/v1/models')).status, 401);
  });

  it('shows every entry in snake_case, with the mode of its modality and all of its limits', async () => {
    const res = await list('');
    const bySlug = new Map(res.body.data.map((m) => [m.slug, m]));
    for (const model of listModels()) {
      const wire = bySlug.get(model.slug);
      assert.ok(wire, model.slug);
      const fields = model.modality === 'avatar' ? [...WIRE_FIELDS, 'animates_portrait', 'inputs'] : WIRE_FIELDS;
      assert.deepEqual(Object.keys(wire).sort(), [...fields].sort(), model.slug);
      assert.equal(wire.mode, ['image', 'voice', 'chat'].includes(model.modality) ? 'sync' : 'async', model.slug);
      assert.deepEqual(wire.pricing, { unit: model.pricing.unit, credits_per_unit: model.pricing.creditsPerUnit }, model.slug);
      assert.deepEqual(wire.limits, Object.fromEntries(Object.entries(model.limits).map(([key, value]) => [snake(key), value])), model.slug);
    }
    for (const key of keysOf(res.body.data)) assert.match(key, /^[a-z0-9_]+$/);

    assert.deepEqual(bySlug.get('kling-2.1-master')?.limits, { durations_s: [5, 10], aspect_ratios: ['16:9', '9:16', '1:1'] });
    assert.deepEqual(bySlug.get('seedance-1-pro')?.limits.min_duration_s, 2);
    assert.deepEqual(bySlug.get('gpt-5')?.limits, { context_tokens: 400_000, max_output_tokens: 128_000 });
    assert.deepEqual(bySlug.get('clarity-upscaler')?.limits, { scale_factors: [2, 4], max_input_mpx: 4 });
    assert.deepEqual(bySlug.get('whisper-1')?.limits, { max_audio_s: 1_500 });
    assert.deepEqual(bySlug.get('eleven-multilingual-v2')?.limits, { max_text_chars: 10_000 });
    assert.deepEqual(bySlug.get('flux-schnell')?.limits.max_outputs, 4);
    assert.deepEqual(bySlug.get('trellis')?.limits, {});
  });
});
