import assert from 'node:assert/strict';
import { call, createOrganization, type TestOrganization } from '../helpers/http';
import { assertLedgerBalanced } from '../helpers/ledger';
import { stack } from '../helpers/stack';

// Every constraint of spec §4's images table: a 400 naming the field, and nothing charged.
const valid = { model: 'flux-dev', prompt: 'a valid prompt' };

const cases: [string, unknown, string][] = [
  ['a missing model', { prompt: 'x' }, 'model'],
  ['a missing prompt', { model: 'flux-dev' }, 'prompt'],
  ['a non-string model', { ...valid, model: 42 }, 'model'],
  ['an empty prompt', { ...valid, prompt: '' }, 'prompt'],
  ['a prompt over 4000 characters', { ...valid, prompt: 'p'.repeat(4001) }, 'prompt'],
  ['an unknown aspect_ratio', { ...valid, aspect_ratio: '4:3' }, 'aspect_ratio'],
  ['num_outputs 0', { ...valid, num_outputs: 0 }, 'num_outputs'],
  ['num_outputs 5', { ...valid, num_outputs: 5 }, 'num_outputs'],
  ['a fractional num_outputs', { ...valid, num_outputs: 1.5 }, 'num_outputs'],
  ['num_outputs as a string', { ...valid, num_outputs: '2' }, 'num_outputs'],
  ['a non-string negative_prompt', { ...valid, negative_prompt: ['x'] }, 'negative_prompt'],
  ['a fractional seed', { ...valid, seed: 1.25 }, 'seed'],
  ['a negative seed', { ...valid, seed: -1 }, 'seed'],
  ['a null seed', { ...valid, seed: null }, 'seed'],
  ['an unknown parameter', { ...valid, steps: 30 }, 'steps'],
  ['a body that is an array', [valid], 'body'],
];

// Rules that depend on the model (its limits and capabilities, domain/model-limits.ts): a 400
// naming the field, with a message that says what the model allows.
const modelCases: [string, Record<string, unknown>, string, string, string][] = [
  ['more outputs than the model makes', { model: 'recraft-v3', prompt: 'x', num_outputs: 4 }, 'validation_failed', 'num_outputs', 'at most 1 image'],
  ['an aspect ratio the model does not render', { model: 'imagen-4', prompt: 'x', aspect_ratio: '3:2' }, 'validation_failed', 'aspect_ratio', '1:1, 16:9, 9:16'],
  [
    'image_url on a model without image_to_image',
    { model: 'flux-schnell', prompt: 'x', image_url: 'https://example.com/a.png' },
    'capability_not_supported',
    'image_url',
    'image_to_image',
  ],
  ['an http image_url', { ...valid, image_url: 'http://example.com/a.png' }, 'validation_failed', 'image_url', 'https'],
  ['an image_url on a private address', { ...valid, image_url: 'https://10.0.0.1/a.png' }, 'validation_failed', 'image_url', 'image_url'],
  ['an image_url that is not a URL', { ...valid, image_url: 'a.png' }, 'validation_failed', 'image_url', 'image_url'],
];

describe('POST /v1/images validation', () => {
  let org: TestOrganization;
  before(async () => {
    org = await createOrganization({ credits: 1000 });
  });

  for (const [what, body, param] of cases) {
    it(`answers 400 validation_failed with param "${param}" for ${what}`, async () => {
      const res = await call('POST', '/v1/images', { key: org.liveKey, body });
      assert.equal(res.status, 400);
      assert.equal(res.body.error.type, 'invalid_request_error');
      assert.equal(res.body.error.code, 'validation_failed');
      assert.equal(res.body.error.param, param);
      assert.ok(Array.isArray(res.body.error.details) && res.body.error.details.length >= 1);
    });
  }

  for (const [what, body, code, param, says] of modelCases) {
    it(`answers 400 ${code} with param "${param}" for ${what}`, async () => {
      const res = await call('POST', '/v1/images', { key: org.liveKey, body });
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.equal(res.body.error.code, code);
      assert.equal(res.body.error.param, param);
      assert.ok(res.body.error.message.includes(says), res.body.error.message);
    });
  }

  it('lists every bad field in details', async () => {
    const res = await call('POST', '/v1/images', { key: org.liveKey, body: { model: 'flux-dev', prompt: 'x', num_outputs: 9, aspect_ratio: 'wide' } });
    const params = res.body.error.details.map((d: { param: string }) => d.param).sort();
    assert.deepEqual(params, ['aspect_ratio', 'num_outputs']);
  });

  it('answers 400 unknown_model for a slug not in the catalog', async () => {
    const res = await call('POST', '/v1/images', { key: org.liveKey, body: { ...valid, model: 'dall-e-9' } });
    assert.equal(res.status, 400);
    assert.equal(res.body.error.code, 'unknown_model');
    assert.equal(res.body.error.param, 'model');
  });

  after(async () => {
    // Nothing above may have moved money or left a generation behind.
    assert.deepEqual(await assertLedgerBalanced(org.id), { availableCredits: 1000, reservedCredits: 0 });
    assert.equal((await stack().knex('generations').where({ organization_id: org.id })).length, 0);
  });
});
