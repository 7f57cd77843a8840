import assert from 'node:assert/strict';
import { STOCK_AVATAR_IDS } from '../../domain/avatars';
import { listModels, type ModelEntry } from '../../domain/catalog';
import { speechDurationMs } from '../../domain/media-durations';
import { estimateCredits } from '../../domain/pricing';
import { call, createOrganization, waitForGeneration, type TestOrganization } from '../helpers/http';
import { probeUrl } from '../helpers/media';
import { assertMoneyInvariants } from '../helpers/money-invariants';

// Decisions §10 on every avatar model of the catalog (a model added later is covered too): the
// text-to-avatar and lipsync bodies, each taken where GET /v1/models says the model takes it and
// refused with capability_not_supported where it does not; never both; stock avatar ids only.

const AVATAR_MODELS: readonly ModelEntry[] = listModels().filter((m) => m.modality === 'avatar');
const TEXT = 'Hello from the avatar test.';
const SHAPES = ['text', 'lipsync'] as const;

interface WireAvatarModel {
  slug: string;
  capabilities: string[];
  animates_portrait: boolean;
  inputs: string[];
}

describe('POST /v1/avatars: both bodies on every avatar model (decisions §10)', function () {
  this.timeout(120_000);
  let org: TestOrganization;
  let videoUrl: string;
  let audio: { url: string; duration_s: string };
  let wire: Map<string, WireAvatarModel>;

  const available = async () => (await call('GET', '/v1/balance', { key: org.liveKey })).body.available_credits as number;
  const bodyOf = (slug: string, shape: (typeof SHAPES)[number]) => (shape === 'text' ? { model: slug, text: TEXT } : { model: slug, video_url: videoUrl, audio_url: audio.url });

  before(async () => {
    org = await createOrganization({ plan: 'studio', credits: 1_000_000 });
    const video = await call('POST', '/v1/videos', { key: org.liveKey, body: { model: 'hailuo-02', prompt: 'a face looking at the camera' } });
    videoUrl = (await waitForGeneration(video.body.id, org.liveKey)).outputs[0].url;
    const speech = await call('POST', '/v1/voice', { key: org.liveKey, body: { model: 'openai-tts-1', text: 'Lip sync me, please.' } });
    assert.equal(speech.status, 200, JSON.stringify(speech.body));
    audio = speech.body.outputs[0];
    const models = await call('GET', '/v1/models?modality=avatar', { key: org.liveKey });
    wire = new Map((models.body.data as WireAvatarModel[]).map((m) => [m.slug, m]));
  });
  after(() => assertMoneyInvariants(org.id));

  it("GET /v1/models shows each avatar model's inputs: the bodies its capabilities name, and image_url on portrait models", () => {
    assert.equal(wire.size, AVATAR_MODELS.length);
    for (const model of wire.values()) {
      const expected = [
        ...(model.capabilities.includes('text_to_video') ? ['text'] : []),
        ...(model.capabilities.includes('lipsync') ? ['lipsync'] : []),
        ...(model.animates_portrait ? ['image_url'] : []),
      ];
      assert.deepEqual(model.inputs, expected, model.slug);
      assert.ok(
        model.inputs.some((input) => input === 'text' || input === 'lipsync'),
        `${model.slug} takes one of the two bodies`,
      );
    }
    // The portrait models take both bodies: the text with a stock portrait, lipsync from the video's first frame.
    assert.deepEqual(wire.get('veed-fabric-1.0')?.inputs, ['text', 'lipsync', 'image_url']);
    assert.deepEqual(wire.get('multitalk')?.inputs, ['text', 'lipsync', 'image_url']);
    assert.deepEqual(wire.get('omnihuman-1.5')?.inputs, ['lipsync', 'image_url']);
    assert.deepEqual(wire.get('veed-avatars')?.inputs, ['text']);
    assert.deepEqual(wire.get('latentsync')?.inputs, ['lipsync']);
  });

  for (const model of AVATAR_MODELS) {
    for (const shape of SHAPES) {
      it(`${model.slug}, ${shape} body: an MP4 with sound billed per second where its inputs name it, else 400 capability_not_supported`, async () => {
        const takes = wire.get(model.slug)!.inputs.includes(shape);
        const before = await available();
        const res = await call('POST', '/v1/avatars', { key: org.liveKey, body: bodyOf(model.slug, shape) });
        if (!takes) {
          assert.equal(res.status, 400, JSON.stringify(res.body));
          assert.deepEqual([res.body.error.code, res.body.error.param], ['capability_not_supported', 'model']);
          const other = shape === 'text' ? /lipsync \(\{video_url, audio_url\}\)/ : /text-to-avatar \(\{text, avatar_id\?, voice_id\?\}\)/;
          assert.match(res.body.error.message, other, 'the message names the body the model takes');
          assert.equal(await available(), before, 'nothing reserved or charged');
          return;
        }
        assert.equal(res.status, 202, JSON.stringify(res.body));
        const durationMs = shape === 'text' ? speechDurationMs(TEXT) : undefined;
        if (durationMs) assert.equal(res.body.reserved_credits, estimateCredits(model, { durationMs }, 'studio'));
        const gen = await waitForGeneration(res.body.id, org.liveKey);
        assert.equal(gen.status, 'succeeded', JSON.stringify(gen));
        assert.equal(gen.params.mode, shape === 'text' ? 'text_to_avatar' : 'lipsync');
        const [output] = gen.outputs;
        assert.equal(output.mime, 'video/mp4');
        const info = await probeUrl(output.url);
        assert.deepEqual(info.streams.map((s) => s.codec_type).sort(), ['audio', 'video']);
        // The clip lasts as long as the speech: the text's, or the lipsync audio's.
        const expectedS = shape === 'text' ? durationMs! / 1000 : Number(audio.duration_s);
        assert.ok(Math.abs(Number(info.format.duration) - expectedS) < 0.2, `${info.format.duration} s, expected ${expectedS}`);
        assert.equal(gen.charged_credits + gen.refunded_credits, gen.reserved_credits);
        assert.ok(gen.charged_credits > 0 && gen.charged_credits <= gen.reserved_credits, 'charged for the seconds delivered, within the reservation');
      });
    }
  }

  it('a body of both shapes is 400 validation_failed on every avatar model, nothing charged', async () => {
    const before = await available();
    for (const model of AVATAR_MODELS) {
      const res = await call('POST', '/v1/avatars', { key: org.liveKey, body: { model: model.slug, text: TEXT, video_url: videoUrl, audio_url: audio.url } });
      assert.equal(res.status, 400, model.slug);
      assert.equal(res.body.error.code, 'validation_failed', model.slug);
      assert.match(res.body.error.message, /not both/);
    }
    assert.equal(await available(), before);
  });

  it('an unknown avatar_id is 400 validation_failed naming avatar_id and listing the stock avatars, on every text model', async () => {
    const before = await available();
    const textModels = AVATAR_MODELS.filter((m) => wire.get(m.slug)!.inputs.includes('text'));
    assert.ok(textModels.length >= 3);
    for (const model of textModels) {
      const res = await call('POST', '/v1/avatars', { key: org.liveKey, body: { model: model.slug, text: TEXT, avatar_id: 'anna' } });
      assert.equal(res.status, 400, `${model.slug}: ${JSON.stringify(res.body)}`);
      assert.deepEqual([res.body.error.code, res.body.error.param], ['validation_failed', 'avatar_id'], model.slug);
      for (const id of STOCK_AVATAR_IDS) assert.ok(res.body.error.message.includes(id), `the message lists ${id}`);
    }
    assert.equal(await available(), before);
  });

  it('a stock avatar_id is taken by a presenter model and a portrait model alike', async () => {
    for (const slug of ['veed-avatars', 'veed-fabric-1.0']) {
      const res = await call('POST', '/v1/avatars', { key: org.liveKey, body: { model: slug, text: TEXT, avatar_id: 'ava_marcus' } });
      assert.equal(res.status, 202, JSON.stringify(res.body));
      const gen = await waitForGeneration(res.body.id, org.liveKey);
      assert.equal(gen.status, 'succeeded', JSON.stringify(gen));
      assert.equal(gen.params.avatar_id, 'ava_marcus');
    }
  });
});
