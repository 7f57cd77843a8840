import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createElevenLabsAdapter, DEFAULT_VOICE_ID } from '../../../activities/providers/elevenlabs';
import { ingestProviderFile } from '../../../activities/providers/ingest-output';
import { ProviderError, type ProviderContext, type ProviderFile, type ProviderJob, type ProviderResult, type SubmitResult } from '../../../activities/providers/types';
import { findModel } from '../../../domain/catalog';
import { OUTPUT_SIZE_CAPS } from '../../../domain/output-limits';
import { probe } from '../../../lib/ffmpeg';
import { createLogger } from '../../../lib/logger';
import { createLocalStorage } from '../../../storage/local-storage';
import { speechMp3 } from '../../fakes/elevenlabs-media';
import { waitFor } from '../../helpers/http';
import { startFakeElevenLabs, type FakeElevenLabs } from '../../fakes/elevenlabs-server';
import { failsWith } from '../../helpers/provider-errors';

// The ElevenLabs adapter, through the official SDK, against a local server speaking ElevenLabs'
// protocol: every operation it serves, and every way a provider call can go wrong.

const warnings: string[] = [];
// Generous for the fake's first MP3 encodings on a busy machine; the hang test uses ~300 ms.
const adapter = createElevenLabsAdapter({ requestTimeoutMs: 10_000, logger: createLogger({ write: (line) => warnings.push(line) }) });
const IMPATIENT_MS = 300;
const impatient = createElevenLabsAdapter({ requestTimeoutMs: IMPATIENT_MS });
let fake: FakeElevenLabs;
let sample: Buffer;
let jobs = 0;

function jobFor(slug: string, over: { prompt?: string; params?: Record<string, unknown>; withAudio?: boolean; apiKey?: string } = {}): ProviderJob {
  const model = findModel(slug)!;
  const route = model.routes.find((r) => r.provider === 'elevenlabs')!;
  return {
    generationId: `gen_el_${++jobs}`,
    model,
    prompt: over.prompt ?? '',
    params: over.params ?? {},
    inputs: over.withAudio ? { audio: { storageKey: 'inputs/sample.mp3', contentType: 'audio/mpeg' } } : {},
    idempotencyKey: `submission_${jobs}`,
    route: { provider: 'elevenlabs', model: route.model },
    credentials: { apiKey: over.apiKey ?? fake.apiKey, baseUrl: fake.baseUrl },
  };
}

const tts = (text = 'Hello from the fake.', params: Record<string, unknown> = {}) => jobFor('eleven-flash-v2.5', { prompt: text, params: { operation: 'tts', text, ...params } });

function ctx(signal = new AbortController().signal): ProviderContext {
  return { signal, readInput: async () => sample, inputUrl: async () => 'http://127.0.0.1:1/unused', outputCapBytes: OUTPUT_SIZE_CAPS.voice };
}

function result(submitted: SubmitResult): ProviderResult {
  assert.equal(submitted.state, 'done');
  return (submitted as Extract<SubmitResult, { state: 'done' }>).result;
}

function stream(file: unknown): Extract<ProviderFile, { kind: 'stream' }> {
  assert.equal((file as ProviderFile).kind, 'stream');
  return file as Extract<ProviderFile, { kind: 'stream' }>;
}

async function readAll(body: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}

async function assertMp3(file: unknown): Promise<void> {
  const { mime, body } = stream(file);
  assert.equal(mime, 'audio/mpeg');
  const probed = await probe(await readAll(body));
  assert.equal(probed.format.format_name, 'mp3');
}

describe('ElevenLabs adapter', () => {
  before(async () => {
    fake = await startFakeElevenLabs();
    sample = await speechMp3('A sample of the voice to clone, a few seconds long.');
  });
  after(() => fake.close());
  beforeEach(() => fake.reset());

  describe('operations', () => {
    it('speaks text with the route model, the asked voice, language and seed, and hands the MP3 on as an unread stream', async () => {
      const job = tts('Good morning, world.', { voice_id: '21m00Tcm4TlvDq8ikWAM', language: 'pt-BR', seed: 42 });
      const { files, usage, text } = result(await adapter.submit(job, ctx()));
      assert.equal(files.length, 1);
      assert.deepEqual([usage, text], [undefined, undefined]);
      const [request] = fake.received;
      assert.equal(request!.path, '/v1/text-to-speech/21m00Tcm4TlvDq8ikWAM');
      assert.equal(request!.apiKey, fake.apiKey);
      assert.equal(request!.query.output_format, 'mp3_44100_128');
      assert.deepEqual(request!.json, { text: 'Good morning, world.', model_id: 'eleven_flash_v2_5', language_code: 'pt', seed: 42 });
      await assertMp3(files[0]);
    });

    it('speaks in the default voice when no voice_id is given', async () => {
      const { files } = result(await adapter.submit(tts(), ctx()));
      assert.equal(fake.received[0]!.path, `/v1/text-to-speech/${DEFAULT_VOICE_ID}`);
      assert.equal(fake.received[0]!.json!.language_code, undefined);
      await assertMp3(files[0]);
    });

    it('clones the sample voice, speaks in it, and deletes the voice once its speech has been read', async () => {
      const job = jobFor('eleven-multilingual-v2', { prompt: 'In my own voice.', params: { operation: 'voice_clone', text: 'In my own voice.' }, withAudio: true });
      const { files } = result(await adapter.submit(job, ctx()));
      const [clone, speech] = fake.received;
      assert.equal(clone!.path, '/v1/voices/add');
      assert.equal(clone!.fields!.name, `generation ${job.generationId}`);
      assert.deepEqual(
        clone!.files!.map((f) => [f.field, f.type, f.data.equals(sample)]),
        [['files', 'audio/mpeg', true]],
      );
      const voiceId = speech!.path.split('/')[3]!;
      assert.ok(fake.voices.has(voiceId), 'the voice lives while its speech is read');
      assert.equal(speech!.json!.model_id, 'eleven_multilingual_v2');
      await assertMp3(files[0]);
      assert.deepEqual(fake.deletedVoices.slice(-1), [voiceId]);
      assert.ok(!fake.voices.has(voiceId), 'nothing lingers at the provider');
    });

    it('deletes the cloned voice when speaking in it fails, and reports the failure', async () => {
      fake.script.fail(503, { on: 'tts' });
      const job = jobFor('eleven-flash-v2.5', { params: { operation: 'voice_clone', text: 'Never heard.' }, withAudio: true });
      await assert.rejects(adapter.submit(job, ctx()), failsWith('provider_error', true));
      assert.deepEqual(
        fake.received.map((r) => r.route),
        ['clone', 'tts', 'delete_voice'],
      );
      assert.ok(!fake.voices.has(fake.deletedVoices.at(-1)!));
    });

    it('logs a cloned voice it could not delete, so an operator can remove it', async () => {
      fake.script.fail(500, { on: 'delete_voice' });
      const job = jobFor('eleven-flash-v2.5', { params: { operation: 'voice_clone', text: 'Kept by mistake.' }, withAudio: true });
      const { files } = result(await adapter.submit(job, ctx()));
      await readAll(stream(files[0]).body);
      const voiceId = fake.received[1]!.path.split('/')[3]!;
      assert.ok(fake.voices.has(voiceId));
      assert.ok(
        warnings.some((line) => line.includes(voiceId) && line.includes('could not delete')),
        'the voice id is logged',
      );
    });

    it('transcribes the audio input with the route model and language, with no files', async () => {
      const job = jobFor('eleven-scribe', { params: { operation: 'transcription', language: 'en' }, withAudio: true });
      const { files, text } = result(await adapter.submit(job, ctx()));
      assert.deepEqual(files, []);
      assert.equal(text, 'The quick brown fox jumps over the lazy dog.');
      const [request] = fake.received;
      assert.equal(request!.path, '/v1/speech-to-text');
      assert.equal(request!.apiKey, fake.apiKey);
      assert.deepEqual(request!.fields, { model_id: 'scribe_v1', language_code: 'en' });
      assert.ok(request!.files![0]!.data.equals(sample));
    });

    it('composes music of the asked length, instrumental when vocals are off, as an MP3 stream', async () => {
      const job = jobFor('eleven-music', { prompt: 'calm piano', params: { duration_s: 15, with_vocals: false } });
      const { files } = result(await adapter.submit(job, ctx()));
      const [request] = fake.received;
      assert.equal(request!.path, '/v1/music');
      assert.equal(request!.query.output_format, 'mp3_44100_128');
      assert.deepEqual(request!.json, { prompt: 'calm piano', music_length_ms: 15_000, force_instrumental: true, model_id: 'music_v1' });
      await assertMp3(files[0]);
    });

    it('leaves vocals to the prompt when with_vocals is on', async () => {
      const job = jobFor('eleven-music', { prompt: 'a folk song', params: { duration_s: 15, with_vocals: true } });
      await readAll(stream(result(await adapter.submit(job, ctx())).files[0]).body);
      assert.equal(fake.received[0]!.json!.force_instrumental, undefined);
    });

    it('answers at once: poll is a clear error and cancel does nothing', async () => {
      await assert.rejects(
        adapter.poll(tts(), 'anything', ctx()),
        failsWith('provider_error', false, (err) => assert.match(err.message, /no job to poll/)),
      );
      await adapter.cancel(tts(), 'anything');
      assert.equal(fake.received.length, 0);
    });
  });

  describe('failures', () => {
    it('fails a refused key as provider_auth_failed, not retryable', async () => {
      await assert.rejects(
        adapter.submit(jobFor('eleven-flash-v2.5', { params: { text: 'x' }, apiKey: 'sk_wrong' }), ctx()),
        failsWith('provider_auth_failed', false, (err) => assert.match(err.message, /invalid_api_key/)),
      );
      assert.equal(fake.received[0]!.apiKey, 'sk_wrong');
    });

    it('fails a 429 with Retry-After as provider_rate_limited, retryable after that long', async () => {
      fake.script.fail(429, { retryAfter: '2' });
      await assert.rejects(
        adapter.submit(tts(), ctx()),
        failsWith('provider_rate_limited', true, (err) => {
          assert.equal(err.opts.retryAfterMs, 2000);
          assert.match(err.message, /too_many_concurrent_requests/);
        }),
      );
    });

    it('fails a 429 without Retry-After (system_busy) as retryable with no set delay', async () => {
      fake.script.fail(429, { code: 'system_busy', message: 'The system is busy.' });
      await assert.rejects(
        adapter.submit(tts(), ctx()),
        failsWith('provider_rate_limited', true, (err) => assert.equal(err.opts.retryAfterMs, undefined)),
      );
    });

    it('fails a 5xx as a retryable provider_error after exactly one request (the SDK retries are off), and the next call succeeds', async () => {
      fake.script.fail(503);
      await assert.rejects(adapter.submit(tts(), ctx()), failsWith('provider_error', true));
      assert.equal(fake.received.length, 1);
      await assertMp3(result(await adapter.submit(tts(), ctx())).files[0]);
      assert.equal(fake.received.length, 2);
    });

    it('fails a request that hangs past the request timeout as a retryable provider_timeout, quickly', async () => {
      fake.script.hang();
      const started = Date.now();
      await assert.rejects(impatient.submit(tts(), ctx()), failsWith('provider_timeout', true));
      assert.ok(Date.now() - started < IMPATIENT_MS + 1_000, `took ${Date.now() - started} ms`);
    });

    it('stops a request at once when the activity is cancelled, passing the cancellation through', async () => {
      fake.script.hang();
      const cancel = new AbortController();
      const started = Date.now();
      const submitted = adapter.submit(jobFor('eleven-music', { prompt: 'x', params: { duration_s: 15 } }), ctx(cancel.signal));
      setTimeout(() => cancel.abort(), 50);
      await assert.rejects(submitted, (err: unknown) => !(err instanceof ProviderError));
      assert.ok(Date.now() - started < 1_000, `took ${Date.now() - started} ms`);
    });

    it('fails a 422 validation error and an unknown voice as provider_rejected, not retryable', async () => {
      fake.script.fail(422, { message: 'text: field required' });
      await assert.rejects(adapter.submit(tts(), ctx()), failsWith('provider_rejected', false));
      await assert.rejects(
        adapter.submit(tts('Hi', { voice_id: 'no-such-voice' }), ctx()),
        failsWith('provider_rejected', false, (err) => assert.match(err.message, /voice_not_found/)),
      );
    });

    it('fails a refused music prompt as content_policy_violation, not retryable', async () => {
      fake.script.refuse('music');
      const job = jobFor('eleven-music', { prompt: 'in the style of a famous band', params: { duration_s: 15 } });
      await assert.rejects(
        adapter.submit(job, ctx()),
        failsWith('content_policy_violation', false, (err) => assert.match(err.message, /bad_prompt/)),
      );
    });

    it('fails an empty audio answer as provider_bad_output', async () => {
      fake.script.missingOutput();
      await assert.rejects(adapter.submit(tts(), ctx()), failsWith('provider_bad_output', false));
    });

    it('hands on an answer that is not audio with its declared type, for the ingest step to refuse', async () => {
      fake.script.malformedOutput();
      const file = stream(result(await adapter.submit(tts(), ctx())).files[0]);
      assert.equal(file.mime, 'application/json');
    });

    it('fails a transcription answer without text, or not JSON at all, as provider_bad_output', async () => {
      const job = () => jobFor('eleven-scribe', { params: { operation: 'transcription' }, withAudio: true });
      fake.script.missingOutput();
      await assert.rejects(adapter.submit(job(), ctx()), failsWith('provider_bad_output', false));
      fake.script.malformedOutput();
      await assert.rejects(adapter.submit(job(), ctx()), failsWith('provider_bad_output', false));
    });

    it('stops reading a transcript past the 16 MB a text answer may take: output_too_large, not retryable', async () => {
      fake.script.hugeOutput(64 * 1024 * 1024, 'stt');
      const job = jobFor('eleven-scribe', { params: { operation: 'transcription' }, withAudio: true });
      await assert.rejects(
        adapter.submit(job, ctx()),
        failsWith('output_too_large', false, (err) => assert.match(err.message, /^ElevenLabs's answer was larger than 16 MB/)),
      );
      assert.ok(fake.hugeServed() < 32 * 1024 * 1024, `the rest was never read: ${fake.hugeServed()} bytes served`);
    });

    it('fails the stream with a retryable error when the connection drops mid-answer', async () => {
      fake.script.cutOutput();
      const file = stream(result(await adapter.submit(tts('A long enough sentence to cut in two halves.'), ctx())).files[0]);
      await assert.rejects(readAll(file.body), (err: unknown) => err instanceof ProviderError && err.retryable);
    });

    it('returns an oversized output as a stream without reading it', async () => {
      const huge = 64 * 1024 * 1024;
      fake.script.hugeOutput(huge);
      const file = stream(result(await adapter.submit(jobFor('eleven-music', { prompt: 'long', params: { duration_s: 180 } }), ctx())).files[0]);
      assert.ok(fake.hugeServed() < huge / 4, `only what the socket buffers was made: ${fake.hugeServed()} bytes`);
      let read = 0;
      for await (const chunk of file.body) read += chunk.length;
      assert.ok(read > huge, `the whole oversized body is there to read: ${read} bytes`);
    });
  });

  describe('through the ingest step', () => {
    const MB = 1024 * 1024;
    let dir: string;
    before(async () => {
      dir = await mkdtemp(join(tmpdir(), 'elevenlabs-ingest-'));
    });
    after(() => rm(dir, { recursive: true, force: true }));

    const ingest = (file: unknown, modality: 'voice' | 'music', capBytes = 50 * MB) =>
      ingestProviderFile(file as ProviderFile, {
        provider: 'ElevenLabs',
        modality,
        capBytes,
        storage: createLocalStorage(dir),
        keyBase: `outputs/gen_el_${++jobs}/0`,
        signal: new AbortController().signal,
        timeoutMs: 10_000,
      });

    it('stores speech as an MP3 with its duration', async () => {
      const stored = await ingest(result(await adapter.submit(tts('Stored for good.'), ctx())).files[0], 'voice');
      assert.equal(stored.mime, 'audio/mpeg');
      assert.ok(Number(stored.durationS) > 0);
    });

    it('refuses a JSON answer given as audio as provider_bad_output', async () => {
      fake.script.malformedOutput();
      await assert.rejects(ingest(result(await adapter.submit(tts(), ctx())).files[0], 'voice'), failsWith('provider_bad_output', false));
    });

    it('stops an oversized answer at the cap, and still deletes the voice it was spoken in', async () => {
      fake.script.hugeOutput(64 * MB, 'tts');
      const job = jobFor('eleven-flash-v2.5', { params: { operation: 'voice_clone', text: 'Far too long.' }, withAudio: true });
      const file = result(await adapter.submit(job, ctx())).files[0];
      await assert.rejects(ingest(file, 'voice', 2 * MB), failsWith('output_too_large', false));
      assert.ok(fake.hugeServed() < 16 * MB, `the rest was never made: ${fake.hugeServed()} bytes`);
      const voiceId = fake.received[1]!.path.split('/')[3]!;
      await waitFor(async () => fake.deletedVoices.includes(voiceId), 5_000, 'the cloned voice to be deleted');
    });
  });
});
