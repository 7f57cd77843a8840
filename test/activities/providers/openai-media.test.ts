import assert from 'node:assert/strict';
import sharp from 'sharp';
import { createOpenAIAdapter } from '../../../activities/providers/openai';
import { imageSizeFor } from '../../../activities/providers/openai-media';
import { renderAudio, renderImage } from '../../../activities/providers/simulator-media';
import type { ProviderFile } from '../../../activities/providers/types';
import { probe } from '../../../lib/ffmpeg';
import { doneResult, jobFor, plainContext, providerError } from '../../fakes/openai-anthropic-jobs';
import type { ReceivedFile } from '../../fakes/openai-anthropic-fake-kit';
import { startFakeOpenAI, type FakeOpenAI } from '../../fakes/openai-server';

// The OpenAI adapter's images, speech and transcription, through the official SDK against a local
// fake of OpenAI's API that makes real PNG and MP3 files.

const asProviderFile = (file: unknown) => file as ProviderFile;

function bytesOf(file: ProviderFile | undefined): Buffer {
  if (file?.kind !== 'bytes') throw new Error(`expected bytes, got ${file?.kind}`);
  return file.data;
}

function streamOf(file: ProviderFile | undefined): AsyncIterable<Uint8Array> {
  if (file?.kind !== 'stream') throw new Error(`expected a stream, got ${file?.kind}`);
  return file.body;
}

async function readAll(body: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}

describe('OpenAI adapter: images, speech and transcription', () => {
  let fake: FakeOpenAI;
  const openai = createOpenAIAdapter({ requestTimeoutMs: 10_000 });

  before(async () => {
    fake = await startFakeOpenAI();
  });
  after(async () => {
    await fake.close();
  });

  it('picks the GPT Image size nearest to each aspect ratio', () => {
    assert.deepEqual(['1:1', '3:2', '2:3', '16:9', '9:16', undefined].map(imageSizeFor), ['1024x1024', '1536x1024', '1024x1536', '1536x1024', '1024x1536', '1024x1024']);
  });

  it('generates images from text: one PNG per output at the nearest size, medium quality', async () => {
    const job = jobFor('gpt-image-1', fake, { prompt: 'a red kite', params: { aspect_ratio: '3:2', num_outputs: 2, negative_prompt: 'people', seed: 7 } });
    const result = doneResult(await openai.submit(job, plainContext()));
    assert.equal(result.files.length, 2);
    for (const file of result.files.map(asProviderFile)) {
      assert.equal(file.mime, 'image/png');
      const meta = await sharp(bytesOf(file)).metadata();
      assert.deepEqual([meta.format, meta.width, meta.height], ['png', 1536, 1024]);
    }
    const request = fake.received.at(-1)!;
    assert.equal(`${request.method} ${request.path}`, 'POST /v1/images/generations');
    assert.equal(request.apiKey, fake.apiKey);
    // GPT Image has no seed and no negative prompt: the latter becomes an instruction.
    assert.deepEqual(request.body, { model: 'gpt-image-1', prompt: 'a red kite\n\nAvoid: people', n: 2, size: '1536x1024', quality: 'medium', output_format: 'png' });
  });

  it('edits the input image for image-to-image, sending its bytes as a multipart file', async () => {
    const input = (await renderImage({ width: 64, height: 48, seed: 'input', format: 'png' })).data;
    const job = jobFor('gpt-image-1', fake, {
      prompt: 'make it night',
      params: { aspect_ratio: '2:3', num_outputs: 1 },
      inputs: { image: { storageKey: 'inputs/x.png', contentType: 'image/png' } },
    });
    const result = doneResult(await openai.submit(job, plainContext({ readInput: async (name) => (name === 'image' ? input : Buffer.alloc(0)) })));
    const [file] = result.files.map(asProviderFile);
    const meta = await sharp(bytesOf(file)).metadata();
    assert.deepEqual([meta.width, meta.height], [1024, 1536]);

    const request = fake.received.at(-1)!;
    assert.equal(`${request.method} ${request.path}`, 'POST /v1/images/edits');
    assert.match(String(request.headers['content-type']), /^multipart\/form-data/);
    const image = request.body?.image as ReceivedFile;
    assert.deepEqual([image.filename, image.type, image.data.equals(input)], ['input.png', 'image/png', true]);
    assert.deepEqual([request.body?.model, request.body?.size, request.body?.n, request.body?.prompt], ['gpt-image-1', '1024x1536', '1', 'make it night']);
  });

  it('fails with content_policy_violation when the safety system blocks an image', async () => {
    fake.script.refuse();
    await assert.rejects(
      openai.submit(jobFor('gpt-image-1', fake), plainContext()),
      providerError('content_policy_violation', false, (err) => assert.match(err.message, /safety system/)),
    );
  });

  it('fails with provider_bad_output when the images answer holds no image', async () => {
    fake.script.missingOutput();
    await assert.rejects(openai.submit(jobFor('gpt-image-1', fake), plainContext()), providerError('provider_bad_output', false));
  });

  it('speaks text as an MP3 stream in the voice asked for, alloy by default', async () => {
    const job = jobFor('openai-tts-1', fake, { prompt: 'Hello there', params: { operation: 'tts', text: 'Hello there', voice_id: 'nova' } });
    const [file] = doneResult(await openai.submit(job, plainContext())).files.map(asProviderFile);
    assert.equal(file!.mime, 'audio/mpeg');
    const audio = await readAll(streamOf(file));
    assert.equal((await probe(audio)).streams[0]!.codec_name, 'mp3');
    assert.deepEqual(fake.received.at(-1)!.body, { model: 'tts-1', input: 'Hello there', voice: 'nova', response_format: 'mp3' });

    const plain = jobFor('openai-tts-1-hd', fake, { params: { operation: 'tts', text: 'Plain' } });
    const [hd] = doneResult(await openai.submit(plain, plainContext())).files.map(asProviderFile);
    await readAll(streamOf(hd));
    assert.deepEqual([fake.received.at(-1)!.body?.model, fake.received.at(-1)!.body?.voice], ['tts-1-hd', 'alloy']);
  });

  it("stops reading an images answer past what its images may take under the modality's cap: output_too_large", async () => {
    fake.script.hugeOutput(2 * 1024 * 1024);
    const job = jobFor('gpt-image-1', fake, { prompt: 'a huge kite' });
    await assert.rejects(openai.submit(job, plainContext({ outputCapBytes: 256 * 1024 })), providerError('output_too_large', false));
    // Under a cap the image fits, the same answer is read whole.
    fake.script.hugeOutput(2 * 1024 * 1024);
    const [file] = doneResult(await openai.submit(job, plainContext({ outputCapBytes: 4 * 1024 * 1024 }))).files.map(asProviderFile);
    assert.equal(bytesOf(file).length, 2 * 1024 * 1024);
  });

  it('hands an oversize speech answer on as a stream without reading it, and refuses one declared over the cap', async () => {
    const size = 64 * 1024 * 1024;
    const job = jobFor('openai-tts-1', fake, { params: { operation: 'tts', text: 'A very long speech' } });
    fake.script.hugeOutput(size);
    await assert.rejects(openai.submit(job, plainContext({ outputCapBytes: size / 2 })), providerError('output_too_large', false));

    fake.script.hugeOutput(size);
    const [file] = doneResult(await openai.submit(job, plainContext({ outputCapBytes: 2 * size }))).files.map(asProviderFile);
    const body = streamOf(file);
    assert.ok(fake.streamedBytes() < size / 4, `only what the socket buffers hold was sent (${fake.streamedBytes()} bytes)`);
    // The ingest step would stop at the size cap; here the first chunk is enough.
    for await (const chunk of body) {
      assert.ok(chunk.length > 0);
      break;
    }
  });

  it('fails speech with a retryable provider_timeout when no answer starts within the request timeout', async () => {
    fake.script.hang();
    const impatient = createOpenAIAdapter({ requestTimeoutMs: 300 });
    const job = jobFor('openai-tts-1', fake, { params: { operation: 'tts', text: 'Hi' } });
    await assert.rejects(impatient.submit(job, plainContext()), providerError('provider_timeout', true));
  });

  it('refuses voice cloning, which OpenAI does not offer, without calling it', async () => {
    const before = fake.received.length;
    const job = jobFor('openai-tts-1', fake, { params: { operation: 'voice_clone', text: 'Hi' } });
    await assert.rejects(
      openai.submit(job, plainContext()),
      providerError('provider_rejected', false, (err) => assert.match(err.message, /voice_clone/)),
    );
    assert.equal(fake.received.length, before);
  });

  it('transcribes the audio input, sending its bytes with the ISO-639-1 language', async () => {
    const audio = (await renderAudio({ durationMs: 1_500, seed: 'speech', format: 'mp3', kind: 'speech' })).data;
    const job = jobFor('whisper-1', fake, {
      prompt: '',
      params: { operation: 'transcription', language: 'en-US' },
      inputs: { audio: { storageKey: 'inputs/a.mp3', contentType: 'audio/mpeg' } },
    });
    const result = doneResult(await openai.submit(job, plainContext({ readInput: async () => audio })));
    assert.deepEqual(result.files, []);
    assert.match(result.text!, /^\[simulated transcript, 1\.5\d* s\]/);

    const request = fake.received.at(-1)!;
    assert.equal(`${request.method} ${request.path}`, 'POST /v1/audio/transcriptions');
    const file = request.body?.file as ReceivedFile;
    assert.deepEqual([file.filename, file.data.equals(audio)], ['audio.mp3', true]);
    assert.deepEqual([request.body?.model, request.body?.language, request.body?.response_format], ['whisper-1', 'en', 'json']);
  });

  it('fails a transcription OpenAI cannot read as provider_rejected, and one without text as provider_bad_output', async () => {
    const job = jobFor('gpt-4o-transcribe', fake, { params: { operation: 'transcription' }, inputs: { audio: { storageKey: 'inputs/a.wav', contentType: 'audio/wav' } } });
    await assert.rejects(
      openai.submit(job, plainContext({ readInput: async () => Buffer.from('not audio') })),
      providerError('provider_rejected', false, (err) => assert.match(err.message, /Invalid file format/)),
    );

    const audio = (await renderAudio({ durationMs: 1_000, seed: 'x', format: 'wav', kind: 'speech' })).data;
    fake.script.missingOutput();
    await assert.rejects(openai.submit(job, plainContext({ readInput: async () => audio })), providerError('provider_bad_output', false));
  });
});
