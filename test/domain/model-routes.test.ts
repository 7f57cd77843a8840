import assert from 'node:assert/strict';
import { listModels } from '../../domain/catalog';
import { ModelRoutesError, parseModelRoutes } from '../../domain/model-routes';
import { servesModality } from '../../domain/providers';

// MODEL_ROUTES (decisions §7) is read once at start-up; what it gets wrong is refused there, with a
// message that names the model and the route, not when a paid request reaches the route.

const refused = (routes: unknown, message: RegExp) =>
  assert.throws(
    () => parseModelRoutes(JSON.stringify(routes)),
    (err: unknown) => err instanceof ModelRoutesError && message.test(err.message),
  );

describe('MODEL_ROUTES', () => {
  it("replaces a model's routes with the ones listed, in order", () => {
    assert.deepEqual(parseModelRoutes(undefined), {});
    assert.deepEqual(parseModelRoutes(' '), {});
    assert.deepEqual(
      parseModelRoutes(
        JSON.stringify({
          'llama-3.3-70b': [
            { provider: 'openai_compatible', model: 'meta-llama/Llama-3.3-70B-Instruct' },
            { provider: 'simulator', model: 'sim' },
          ],
        }),
      ),
      {
        'llama-3.3-70b': [
          { provider: 'openai_compatible', model: 'meta-llama/Llama-3.3-70B-Instruct' },
          { provider: 'simulator', model: 'sim' },
        ],
      },
    );
  });

  it('refuses what is not a routes object, an unknown model or provider, an empty list and a missing model id', () => {
    assert.throws(() => parseModelRoutes('{'), ModelRoutesError);
    refused([], /JSON object keyed by model slug/);
    refused({ 'no-such-model': [{ provider: 'fal', model: 'x' }] }, /unknown model "no-such-model"/);
    refused({ 'flux-dev': [{ provider: 'midjourney', model: 'x' }] }, /\["flux-dev"\]\[0\]\.provider must be one of/);
    refused({ 'flux-dev': [] }, /non-empty list/);
    refused({ 'flux-dev': [{ provider: 'fal' }] }, /\.model must be the provider's model id/);
  });

  it("refuses a route to a provider that does not serve the model's modality, naming what it serves", () => {
    refused(
      {
        'flux-dev': [
          { provider: 'fal', model: 'fal-ai/flux/dev' },
          { provider: 'anthropic', model: 'claude-sonnet-4-5' },
        ],
      },
      /\["flux-dev"\]\[1\]: flux-dev is a model of modality image, and anthropic serves chat models/,
    );
    refused({ 'llama-3.3-70b': [{ provider: 'fal', model: 'x' }] }, /llama-3\.3-70b is a model of modality chat, and fal serves image, video, music, avatar, 3d, upscale models/);
    refused({ 'hailuo-02': [{ provider: 'elevenlabs', model: 'x' }] }, /is a model of modality video, and elevenlabs serves voice, music models/);
  });

  it("accepts every catalog route: each one's provider serves its model's modality", () => {
    for (const model of listModels()) {
      for (const route of model.routes) assert.ok(servesModality(route.provider, model.modality), `${model.slug} → ${route.provider}`);
    }
  });
});
