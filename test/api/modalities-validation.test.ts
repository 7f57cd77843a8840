import assert from 'node:assert/strict';
import { call, createOrganization, waitForGeneration, type TestOrganization } from '../helpers/http';
import { assertLedgerBalanced } from '../helpers/ledger';
import { stack } from '../helpers/stack';

// Every constraint of spec §4/§8 and decisions §10 on the seven newer endpoints: a 400 with the
// documented code and `param`, and nothing recorded or charged.

type Case = [title: string, path: string, body: Record<string, unknown>, code: string, param: string];

const long = (n: number) => 'x'.repeat(n);
const messages = (n: number) => Array.from({ length: n }, () => ({ content: 'hi' }));

const CASES: Case[] = [
  ['video: missing prompt', '/v1/videos', { model: 'hailuo-02' }, 'validation_failed', 'prompt'],
  ['video: duration the model does not render', '/v1/videos', { model: 'hailuo-02', prompt: 'p', duration_s: 7 }, 'validation_failed', 'duration_s'],
  ['video: fractional duration', '/v1/videos', { model: 'hailuo-02', prompt: 'p', duration_s: 6.5 }, 'validation_failed', 'duration_s'],
  ['video: aspect ratio the model does not render', '/v1/videos', { model: 'luma-ray-2', prompt: 'p', aspect_ratio: '1:1' }, 'validation_failed', 'aspect_ratio'],
  ['video: image_url on a text-only model', '/v1/videos', { model: 'hailuo-02', prompt: 'p', image_url: 'https://example.com/a.png' }, 'capability_not_supported', 'image_url'],
  ['video: no image for an image-only model', '/v1/videos', { model: 'kling-2.1-pro', prompt: 'p' }, 'capability_not_supported', 'model'],
  ['video: image model on the video endpoint', '/v1/videos', { model: 'flux-dev', prompt: 'p' }, 'modality_mismatch', 'model'],
  ['video: unknown field', '/v1/videos', { model: 'hailuo-02', prompt: 'p', fps: 30 }, 'validation_failed', 'fps'],
  ['video: http image_url', '/v1/videos', { model: 'kling-2.1-pro', prompt: 'p', image_url: 'http://example.com/a.png' }, 'validation_failed', 'image_url'],
  ['video: image_url on a private address', '/v1/videos', { model: 'kling-2.1-pro', prompt: 'p', image_url: 'https://10.0.0.1/a.png' }, 'validation_failed', 'image_url'],
  ['voice: tts without text', '/v1/voice', { model: 'openai-tts-1' }, 'validation_failed', 'text'],
  ['voice: unknown operation', '/v1/voice', { model: 'openai-tts-1', operation: 'sing', text: 'a' }, 'validation_failed', 'operation'],
  [
    'voice: clone on a model without voice_clone',
    '/v1/voice',
    { model: 'openai-tts-1', operation: 'voice_clone', text: 'a', audio_url: 'https://example.com/a.mp3' },
    'capability_not_supported',
    'operation',
  ],
  ['voice: clone without a sample', '/v1/voice', { model: 'eleven-flash-v2.5', operation: 'voice_clone', text: 'a' }, 'validation_failed', 'audio_url'],
  ['voice: transcription without audio', '/v1/voice', { model: 'whisper-1', operation: 'transcription' }, 'validation_failed', 'audio_url'],
  [
    'voice: transcription with text',
    '/v1/voice',
    { model: 'whisper-1', operation: 'transcription', text: 'a', audio_url: 'https://example.com/a.mp3' },
    'validation_failed',
    'text',
  ],
  ['voice: text over the model limit', '/v1/voice', { model: 'openai-tts-1', text: long(4097) }, 'validation_failed', 'text'],
  ['voice: tts with a transcription model', '/v1/voice', { model: 'whisper-1', text: 'a' }, 'capability_not_supported', 'operation'],
  ['music: too short', '/v1/music', { model: 'minimax-music-v2', prompt: 'p', duration_s: 14 }, 'validation_failed', 'duration_s'],
  ['music: too long', '/v1/music', { model: 'minimax-music-v2', prompt: 'p', duration_s: 181 }, 'validation_failed', 'duration_s'],
  ['music: with_vocals not a boolean', '/v1/music', { model: 'minimax-music-v2', prompt: 'p', with_vocals: 'yes' }, 'validation_failed', 'with_vocals'],
  ['music: outside the model range', '/v1/music', { model: 'lyria-2', prompt: 'p', duration_s: 60 }, 'validation_failed', 'duration_s'],
  [
    'avatar: both shapes',
    '/v1/avatars',
    { model: 'veed-avatars', text: 'hi', video_url: 'https://example.com/v.mp4', audio_url: 'https://example.com/a.mp3' },
    'validation_failed',
    'video_url',
  ],
  ['avatar: neither shape', '/v1/avatars', { model: 'veed-avatars' }, 'validation_failed', 'text'],
  ['avatar: lipsync without audio', '/v1/avatars', { model: 'latentsync', video_url: 'https://example.com/v.mp4' }, 'validation_failed', 'audio_url'],
  [
    'avatar: lipsync on a text avatar model',
    '/v1/avatars',
    { model: 'veed-avatars', video_url: 'https://example.com/v.mp4', audio_url: 'https://example.com/a.mp3' },
    'capability_not_supported',
    'model',
  ],
  ['avatar: text on a lipsync model', '/v1/avatars', { model: 'latentsync', text: 'hi' }, 'capability_not_supported', 'model'],
  ['avatar: an unknown avatar_id', '/v1/avatars', { model: 'veed-fabric-1.0', text: 'hi', avatar_id: 'anna' }, 'validation_failed', 'avatar_id'],
  [
    'avatar: a portrait and a video to a portrait model',
    '/v1/avatars',
    { model: 'multitalk', image_url: 'https://example.com/p.png', video_url: 'https://example.com/v.mp4', audio_url: 'https://example.com/a.mp3' },
    'validation_failed',
    'video_url',
  ],
  [
    'avatar: a portrait to a stock avatar model',
    '/v1/avatars',
    { model: 'veed-avatars', text: 'hi', image_url: 'https://example.com/p.png' },
    'capability_not_supported',
    'image_url',
  ],
  [
    'avatar: a stock avatar to a portrait model',
    '/v1/avatars',
    { model: 'veed-fabric-1.0', text: 'hi', avatar_id: 'ava_emily', image_url: 'https://example.com/p.png' },
    'validation_failed',
    'avatar_id',
  ],
  [
    'avatar: a portrait to a video lipsync model',
    '/v1/avatars',
    { model: 'latentsync', image_url: 'https://example.com/p.png', audio_url: 'https://example.com/a.mp3' },
    'capability_not_supported',
    'image_url',
  ],
  ['avatar: a portrait on a private address', '/v1/avatars', { model: 'multitalk', text: 'hi', image_url: 'https://10.0.0.1/p.png' }, 'validation_failed', 'image_url'],
  ['avatar: longer than the model makes', '/v1/avatars', { model: 'multitalk', text: long(200) }, 'validation_failed', 'text'],
  ['chat: no messages', '/v1/chat', { model: 'gpt-5-mini', messages: [] }, 'validation_failed', 'messages'],
  ['chat: 51 messages', '/v1/chat', { model: 'gpt-5-mini', messages: messages(51) }, 'validation_failed', 'messages'],
  ['chat: message without content', '/v1/chat', { model: 'gpt-5-mini', messages: [{ role: 'user' }] }, 'validation_failed', 'messages.0.content'],
  ['chat: max_tokens 0', '/v1/chat', { model: 'gpt-5-mini', messages: messages(1), max_tokens: 0 }, 'validation_failed', 'max_tokens'],
  ['chat: max_tokens 8001', '/v1/chat', { model: 'gpt-5-mini', messages: messages(1), max_tokens: 8001 }, 'validation_failed', 'max_tokens'],
  ['chat: temperature 2.1', '/v1/chat', { model: 'gpt-5-mini', messages: messages(1), temperature: 2.1 }, 'validation_failed', 'temperature'],
  ['chat: negative temperature', '/v1/chat', { model: 'gpt-5-mini', messages: messages(1), temperature: -0.1 }, 'validation_failed', 'temperature'],
  [
    'chat: input over the model context window',
    '/v1/chat',
    { model: 'deepseek-chat', messages: Array.from({ length: 6 }, () => ({ content: long(90_000) })) },
    'validation_failed',
    'messages',
  ],
  ['chat: system prompt over 8000', '/v1/chat', { model: 'gpt-5-mini', messages: messages(1), system_prompt: long(8001) }, 'validation_failed', 'system_prompt'],
  ['3d: prompt over 4000', '/v1/three-d', { model: 'tripo-v2.5-text', prompt: long(4001) }, 'validation_failed', 'prompt'],
  ['3d: texture size 512', '/v1/three-d', { model: 'tripo-v2.5-text', prompt: 'p', texture_size: '512' }, 'validation_failed', 'texture_size'],
  ['3d: texture size as a number', '/v1/three-d', { model: 'tripo-v2.5-text', prompt: 'p', texture_size: 1024 }, 'validation_failed', 'texture_size'],
  ['3d: unknown complexity', '/v1/three-d', { model: 'tripo-v2.5-text', prompt: 'p', mesh_complexity: 'ultra' }, 'validation_failed', 'mesh_complexity'],
  ['3d: rigged on a model that cannot rig', '/v1/three-d', { model: 'tripo-v2.5-text', prompt: 'p', rigged: true }, 'capability_not_supported', 'rigged'],
  ['3d: image on a text-only model', '/v1/three-d', { model: 'tripo-v2.5-text', prompt: 'p', image_url: 'https://example.com/a.png' }, 'capability_not_supported', 'image_url'],
  ['upscale: missing image_url', '/v1/upscale', { model: 'real-esrgan' }, 'validation_failed', 'image_url'],
  ['upscale: scale factor 3', '/v1/upscale', { model: 'real-esrgan', image_url: 'https://example.com/a.png', scale_factor: '3' }, 'validation_failed', 'scale_factor'],
  ['upscale: scale factor the model lacks', '/v1/upscale', { model: 'aura-sr', image_url: 'https://example.com/a.png', scale_factor: '2' }, 'validation_failed', 'scale_factor'],
  [
    'upscale: face_enhance without face_restore',
    '/v1/upscale',
    { model: 'aura-sr', image_url: 'https://example.com/a.png', face_enhance: true },
    'capability_not_supported',
    'face_enhance',
  ],
  ['upscale: not a URL', '/v1/upscale', { model: 'real-esrgan', image_url: 'not a url' }, 'validation_failed', 'image_url'],
  ['upscale: loopback image_url', '/v1/upscale', { model: 'real-esrgan', image_url: 'https://127.0.0.1/a.png' }, 'validation_failed', 'image_url'],
];

describe('creation endpoints: every constraint answers 400, nothing charged', () => {
  let org: TestOrganization;
  before(async () => {
    org = await createOrganization();
  });
  after(async () => {
    // The two input tests below make their source files with the test key.
    const rows = await stack().knex('generations').where({ organization_id: org.id, environment: 'live' }).count<{ count: string }[]>('* as count');
    assert.equal(Number(rows[0]!.count), 0, 'no generation was recorded');
    const wallet = await assertLedgerBalanced(org.id);
    assert.deepEqual([wallet.availableCredits, wallet.reservedCredits], [100_000, 0]);
  });

  for (const [title, path, body, code, param] of CASES) {
    it(`${title} → 400 ${code}`, async () => {
      const res = await call('POST', path, { key: org.liveKey, body });
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.equal(res.body.error.code, code);
      assert.equal(res.body.error.param, param);
    });
  }

  it('an output URL with a tampered signature is refused as input', async () => {
    const image = await call('POST', '/v1/images', { key: org.testKey, body: { model: 'flux-schnell', prompt: 'x' } });
    const url: string = image.body.outputs[0].url;
    // Flip the signature's first hex digit.
    const tampered = url.replace(/signature=([0-9a-f])/, (_, c: string) => `signature=${c === '0' ? '1' : '0'}`);
    assert.notEqual(tampered, url);
    const res = await call('POST', '/v1/upscale', { key: org.liveKey, body: { model: 'real-esrgan', image_url: tampered } });
    assert.equal(res.status, 400);
    assert.equal(res.body.error.param, 'image_url');
  });

  it('a lipsync audio longer than the model takes is refused naming audio_url and the limit', async () => {
    const speech = await call('POST', '/v1/voice', { key: org.testKey, body: { model: 'openai-tts-1', text: long(1_900) } });
    const video = await call('POST', '/v1/videos', { key: org.testKey, body: { model: 'hailuo-02', prompt: 'a face' } });
    const videoUrl = (await waitForGeneration(video.body.id, org.testKey)).outputs[0].url;
    // 1,900 characters are about 127 s of speech; LatentSync takes 120 s.
    const res = await call('POST', '/v1/avatars', { key: org.liveKey, body: { model: 'latentsync', video_url: videoUrl, audio_url: speech.body.outputs[0].url } });
    assert.equal(res.status, 400, JSON.stringify(res.body));
    assert.equal(res.body.error.code, 'validation_failed');
    assert.equal(res.body.error.param, 'audio_url');
    assert.match(res.body.error.message, /at most 120 seconds/);
  });

  it('a file that is not audio is refused as audio_url', async () => {
    const image = await call('POST', '/v1/images', { key: org.testKey, body: { model: 'flux-schnell', prompt: 'x' } });
    const res = await call('POST', '/v1/voice', { key: org.liveKey, body: { model: 'whisper-1', operation: 'transcription', audio_url: image.body.outputs[0].url } });
    assert.equal(res.status, 400);
    assert.equal(res.body.error.param, 'audio_url');
  });
});
