import assert from 'node:assert/strict';
import { call, createOrganization, type TestOrganization } from '../helpers/http';
import { createKeyWithRole } from '../helpers/keys';
import { assertLedgerBalanced } from '../helpers/ledger';
import { assertNothingRecorded, waitForComparison } from '../helpers/comparisons';
import { uploadImage } from '../helpers/uploads';

// POST /v1/comparisons refuses a bad request before it records or reserves anything: each refusal
// is a 4xx with its documented code (decisions §2, §5) and leaves the organization as it was.

const CREDITS = 10_000;
const CHAT_MODELS = [
  'gpt-5',
  'gpt-5-mini',
  'claude-opus-4.1',
  'claude-sonnet-4.5',
  'claude-haiku-4.5',
  'gemini-2.5-pro',
  'gemini-2.5-flash',
  'gemini-2.5-flash-lite',
  'llama-3.3-70b',
  'llama-4-maverick',
  'deepseek-chat',
];
const IMAGE_MODELS = ['flux-schnell', 'imagen-4-fast', 'flux-dev', 'imagen-4', 'recraft-v3', 'ideogram-v3', 'flux-1.1-pro'];

/** Posts a comparison and asserts the refusal: status, code and the field it names. */
async function refused(org: TestOrganization, body: unknown, expected: { status: number; code: string; param?: string; message?: RegExp }, key = org.liveKey) {
  const res = await call('POST', '/v1/comparisons', { key, body });
  assert.equal(res.status, expected.status, JSON.stringify(res.body));
  assert.equal(res.body.error.code, expected.code);
  if (expected.param !== undefined) assert.equal(res.body.error.param, expected.param, res.body.error.message);
  if (expected.message) assert.match(res.body.error.message, expected.message);
  return res.body.error;
}

const comparison = (models: string[], extra: Record<string, unknown> = {}) => ({ prompt: 'a lighthouse at dusk', models, ...extra });

describe('POST /v1/comparisons: what it refuses', function () {
  this.timeout(60_000);

  describe('the request shape: 400 validation_failed, nothing recorded', () => {
    const cases: [string, unknown, string][] = [
      ['one model', comparison(['flux-schnell']), 'models'],
      ['thirteen models', comparison([...CHAT_MODELS, 'flux-schnell', 'flux-dev']), 'models'],
      ['a model listed twice', comparison(['flux-schnell', 'flux-dev', 'flux-schnell']), 'models.2'],
      ['no prompt', { models: ['flux-schnell', 'flux-dev'] }, 'prompt'],
      ['an empty prompt', comparison(['flux-schnell', 'flux-dev'], { prompt: '' }), 'prompt'],
      ['a prompt of 4,001 characters', comparison(['flux-schnell', 'flux-dev'], { prompt: 'x'.repeat(4001) }), 'prompt'],
      ['no models', { prompt: 'a lighthouse' }, 'models'],
      ['models that are not a list', comparison([], { models: 'flux-schnell,flux-dev' }), 'models'],
      ['an unknown field in the body', comparison(['flux-schnell', 'flux-dev'], { temperature: 0.5 }), 'temperature'],
      ['params_shared that is not an object', comparison(['flux-schnell', 'flux-dev'], { params_shared: ['16:9'] }), 'params_shared'],
    ];
    for (const [what, body, param] of cases) {
      it(`refuses ${what}, naming ${param}`, async () => {
        const org = await createOrganization({ plan: 'team', credits: CREDITS });
        await refused(org, body, { status: 400, code: 'validation_failed', param });
        await assertNothingRecorded(org, CREDITS);
      });
    }

    it('accepts a prompt of exactly 4,000 characters', async () => {
      const org = await createOrganization({ plan: 'pro', credits: CREDITS });
      const res = await call('POST', '/v1/comparisons', { key: org.testKey, body: comparison(['flux-schnell', 'imagen-4-fast'], { prompt: 'x'.repeat(4000) }) });
      assert.equal(res.status, 202, JSON.stringify(res.body));
      await waitForComparison(res.body.id, org.testKey);
      await assertLedgerBalanced(org.id);
    });
  });

  describe('the models', () => {
    it('answers 400 unknown_model naming the position of a slug not in the catalog', async () => {
      const org = await createOrganization({ credits: CREDITS });
      await refused(org, comparison(['flux-schnell', 'flux-9000']), { status: 400, code: 'unknown_model', param: 'models.1', message: /flux-9000/ });
      await assertNothingRecorded(org, CREDITS);
    });

    it('answers 400 modality_mismatch for an image model next to a video model', async () => {
      const org = await createOrganization({ credits: CREDITS });
      await refused(org, comparison(['flux-schnell', 'hailuo-02']), { status: 400, code: 'modality_mismatch', param: 'models.1', message: /hailuo-02.*video/ });
      await assertNothingRecorded(org, CREDITS);
    });

    it('answers 400 capability_not_supported when params_shared.image_url goes to an image model without image_to_image', async () => {
      const org = await createOrganization({ credits: CREDITS });
      const imageUrl = await uploadImage(org);
      const error = await refused(org, comparison(['flux-dev', 'flux-schnell'], { params_shared: { image_url: imageUrl } }), {
        status: 400,
        code: 'capability_not_supported',
        param: 'params_shared.image_url',
        message: /flux-schnell.*image_to_image/,
      });
      assert.doesNotMatch(error.message, /flux-dev/);
      await assertNothingRecorded(org, CREDITS);
    });

    it('answers 400 capability_not_supported when face_enhance goes to an upscale model without face_restore', async () => {
      const org = await createOrganization({ credits: CREDITS });
      const imageUrl = await uploadImage(org);
      await refused(
        org,
        { prompt: 'sharper', models: ['real-esrgan', 'aura-sr'], params_shared: { image_url: imageUrl, face_enhance: true, scale_factor: '4' } },
        {
          status: 400,
          code: 'capability_not_supported',
          param: 'params_shared.face_enhance',
          message: /aura-sr.*face_restore/,
        },
      );
      await assertNothingRecorded(org, CREDITS);
    });

    it('answers 402 plan_upgrade_required for a Studio+ model in a comparison on the Pro plan', async () => {
      const org = await createOrganization({ plan: 'pro', credits: CREDITS });
      await refused(org, comparison(['flux-schnell', 'flux-1.1-pro-ultra']), { status: 402, code: 'plan_upgrade_required', param: 'models.1', message: /flux-1\.1-pro-ultra/ });
      await refused(org, comparison(['flux-schnell', 'flux-1.1-pro-ultra']), { status: 402, code: 'plan_upgrade_required', param: 'models.1' }, org.testKey);
      await assertNothingRecorded(org, CREDITS);
    });
  });

  describe('params_shared, checked for every model as its own endpoint would', () => {
    it('answers 400 validation_failed naming an unknown parameter', async () => {
      const org = await createOrganization({ credits: CREDITS });
      await refused(org, comparison(['flux-schnell', 'flux-dev'], { params_shared: { colour: 'red' } }), { status: 400, code: 'validation_failed', param: 'params_shared.colour' });
      await assertNothingRecorded(org, CREDITS);
    });

    it('lists every bad params_shared field in details, as a schema failure does (decisions §2)', async () => {
      const org = await createOrganization({ credits: CREDITS });
      const error = await refused(org, comparison(['flux-schnell', 'flux-dev'], { params_shared: { colour: 'red', num_outputs: 9 } }), {
        status: 400,
        code: 'validation_failed',
        param: 'params_shared.colour',
      });
      // KNOWN BUG (api/admission/comparison-requests.ts, asComparisonError): the endpoint's `details` are
      // dropped when its error is re-pointed at params_shared, so the caller learns of one bad field
      // at a time. POST /v1/images with the same fields lists both.
      assert.deepEqual(
        error.details?.map((d: { param: string }) => d.param),
        ['params_shared.colour', 'params_shared.num_outputs'],
        'details lists every bad field',
      );
      await assertNothingRecorded(org, CREDITS);
    });

    it('answers 400 naming the model whose limits a video duration breaks, though the other allows it', async () => {
      const org = await createOrganization({ credits: CREDITS });
      // hailuo-02 makes 6 or 10 s videos; luma-ray-2-flash 5 or 9 s.
      const error = await refused(
        org,
        { prompt: 'surf', models: ['hailuo-02', 'luma-ray-2-flash'], params_shared: { duration_s: 6 } },
        {
          status: 400,
          code: 'validation_failed',
          param: 'params_shared.duration_s',
          message: /luma-ray-2-flash/,
        },
      );
      assert.doesNotMatch(error.message, /hailuo-02/);
      await assertNothingRecorded(org, CREDITS);
    });

    it('answers 400 naming the model whose limit num_outputs exceeds', async () => {
      const org = await createOrganization({ credits: CREDITS });
      await refused(org, comparison(['flux-schnell', 'recraft-v3'], { params_shared: { num_outputs: 2 } }), {
        status: 400,
        code: 'validation_failed',
        param: 'params_shared.num_outputs',
        message: /recraft-v3/,
      });
      await assertNothingRecorded(org, CREDITS);
    });

    it('answers 400 validation_failed for chat max_tokens above 8,000, naming params_shared.max_tokens', async () => {
      const org = await createOrganization({ credits: CREDITS });
      // Spec §8 caps max_tokens at 8,000 for every model (none of the catalog's allows fewer).
      await refused(
        org,
        { prompt: 'hello', models: ['gpt-5-mini', 'llama-3.3-70b'], params_shared: { max_tokens: 8001 } },
        {
          status: 400,
          code: 'validation_failed',
          param: 'params_shared.max_tokens',
          message: /8000/,
        },
      );
      await assertNothingRecorded(org, CREDITS);
    });

    it('answers 400 naming prompt when the prompt is too long for one model to say', async () => {
      const org = await createOrganization({ credits: CREDITS });
      // A text avatar lasts about a second per 15 characters: 300 characters fit veed-avatars (120 s), not multitalk (10 s).
      await refused(
        org,
        { prompt: 'w'.repeat(300), models: ['veed-avatars', 'multitalk'] },
        {
          status: 400,
          code: 'validation_failed',
          param: 'prompt',
          message: /multitalk/,
        },
      );
      await assertNothingRecorded(org, CREDITS);
    });

    it('answers 400 for a voice comparison asked to transcribe: a comparison speaks its prompt', async () => {
      const org = await createOrganization({ credits: CREDITS });
      await refused(
        org,
        { prompt: 'hello', models: ['whisper-1', 'gpt-4o-transcribe'], params_shared: { operation: 'transcription' } },
        {
          status: 400,
          code: 'validation_failed',
          param: 'params_shared.operation',
        },
      );
      await assertNothingRecorded(org, CREDITS);
    });

    const reserved: [string, string[], Record<string, unknown>, string][] = [
      ['model', ['flux-schnell', 'flux-dev'], { model: 'flux-dev' }, 'params_shared.model'],
      ['the image prompt', ['flux-schnell', 'flux-dev'], { prompt: 'another' }, 'params_shared.prompt'],
      ['the voice text', ['openai-tts-1', 'eleven-v3'], { text: 'another' }, 'params_shared.text'],
      ['the chat messages', ['gpt-5-mini', 'deepseek-chat'], { messages: [{ role: 'user', content: 'another' }] }, 'params_shared.messages'],
    ];
    for (const [what, models, paramsShared, param] of reserved) {
      it(`answers 400 validation_failed when params_shared sets ${what}, which the comparison sets itself`, async () => {
        const org = await createOrganization({ credits: CREDITS });
        await refused(org, comparison(models, { params_shared: paramsShared }), { status: 400, code: 'validation_failed', param });
        await assertNothingRecorded(org, CREDITS);
      });
    }
  });

  describe('the plan caps (Free 2, Pro 3, Studio 6, Team 12; never more than 12)', () => {
    const caps: [string, string[], number][] = [
      ['free', IMAGE_MODELS, 2],
      ['pro', IMAGE_MODELS, 3],
      ['studio', IMAGE_MODELS, 6],
    ];
    for (const [plan, models, cap] of caps) {
      it(`lets the ${plan} plan compare ${cap} models and answers 402 plan_upgrade_required for ${cap + 1}`, async () => {
        const org = await createOrganization({ plan, credits: CREDITS });
        await refused(org, comparison(models.slice(0, cap + 1)), {
          status: 402,
          code: 'plan_upgrade_required',
          param: 'models',
          message: new RegExp(`${plan} plan compares up to ${cap}`),
        });
        await refused(org, comparison(models.slice(0, cap + 1)), { status: 402, code: 'plan_upgrade_required' }, org.testKey);
        await assertNothingRecorded(org, CREDITS);
        const ok = await call('POST', '/v1/comparisons', { key: org.testKey, body: comparison(models.slice(0, cap)) });
        assert.equal(ok.status, 202, JSON.stringify(ok.body));
        assert.equal(ok.body.generations.length, cap);
        assert.equal((await waitForComparison(ok.body.id, org.testKey)).status, 'succeeded');
        await assertLedgerBalanced(org.id);
      });
    }

    it('lets the team plan compare the eleven chat models (no modality has twelve), and refuses thirteen as malformed', async () => {
      const org = await createOrganization({ plan: 'team', credits: CREDITS });
      await refused(org, comparison([...CHAT_MODELS, 'flux-schnell', 'flux-dev']), { status: 400, code: 'validation_failed', param: 'models' });
      await assertNothingRecorded(org, CREDITS);
      const ok = await call('POST', '/v1/comparisons', { key: org.testKey, body: comparison(CHAT_MODELS, { params_shared: { max_tokens: 50 } }) });
      assert.equal(ok.status, 202, JSON.stringify(ok.body));
      assert.deepEqual(ok.body.models, CHAT_MODELS);
      assert.equal((await waitForComparison(ok.body.id, org.testKey)).status, 'succeeded');
      await assertLedgerBalanced(org.id);
    });
  });

  describe('who may compare', () => {
    it('needs the write scope of the modality: a videos:write key gets 403 for images and 202 for videos', async () => {
      const org = await createOrganization({ plan: 'pro', credits: CREDITS * 10 });
      const created = await call('POST', '/v1/api-keys', { key: org.liveKey, body: { name: 'videos only', scopes: ['videos:write', 'generations:read'] } });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const videosOnly = created.body.secret as string;
      await refused(org, comparison(['flux-schnell', 'flux-dev']), { status: 403, code: 'insufficient_role', message: /images:write/ }, videosOnly);
      await assertNothingRecorded(org, CREDITS * 10);

      const video = await call('POST', '/v1/comparisons', { key: videosOnly, body: { prompt: 'surf', models: ['hailuo-02', 'luma-ray-2-flash'] } });
      assert.equal(video.status, 202, JSON.stringify(video.body));
      assert.equal((await waitForComparison(video.body.id, videosOnly)).status, 'succeeded');
      await assertLedgerBalanced(org.id);
    });

    it('refuses a viewer: 403 insufficient_role', async () => {
      const org = await createOrganization({ credits: CREDITS });
      const viewer = await createKeyWithRole(org.id, 'viewer');
      await refused(org, comparison(['flux-schnell', 'flux-dev']), { status: 403, code: 'insufficient_role' }, viewer);
      await assertNothingRecorded(org, CREDITS);
    });
  });
});
