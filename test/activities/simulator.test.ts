import assert from 'node:assert/strict';
import sharp from 'sharp';
import { createSimulator } from '../../activities/providers/simulator';
import { ProviderError, type ProducedFile, type ProviderContext, type ProviderFile, type ProviderJob } from '../../activities/providers/types';
import { findModel, listModels } from '../../domain/catalog';
import { OUTPUT_SIZE_CAPS } from '../../domain/output-limits';
import { waitFor } from '../helpers/http';

const image = findModel('flux-schnell')!;
const video = listModels().find((m) => m.modality === 'video' && m.capabilities.includes('text_to_video'))!;
const chat = listModels().find((m) => m.modality === 'chat')!;
const ctx = (signal = new AbortController().signal): ProviderContext => ({
  signal,
  readInput: async () => {
    throw new Error('no inputs in these tests');
  },
  inputUrl: async () => {
    throw new Error('no inputs in these tests');
  },
  outputCapBytes: OUTPUT_SIZE_CAPS.image,
});
let submissions = 0;
// Each job is its own submission unless a test says otherwise.
const job = (over: Partial<ProviderJob>): ProviderJob => ({
  generationId: 'gen_a',
  model: image,
  prompt: 'x',
  params: {},
  inputs: {},
  idempotencyKey: `submission_${++submissions}`,
  route: { provider: 'simulator', model: (over.model ?? image).slug },
  credentials: { apiKey: '', baseUrl: '' },
  ...over,
});
/** The simulator's files are always made in memory (ProducedFile), never a URL or a stream. */
const made = (files: (ProducedFile | ProviderFile)[]): ProducedFile[] =>
  files.map((f) => {
    assert.ok(!('kind' in f));
    return f;
  });
const simulator = createSimulator({ asyncLatencyMs: 200 });

describe('simulator', () => {
  it('answers a sync modality at once: one PNG per requested output at the aspect ratio size', async () => {
    const submitted = await simulator.submit(job({ prompt: 'tall', params: { aspect_ratio: '9:16', num_outputs: 3 } }), ctx());
    assert.equal(submitted.state, 'done');
    const files = made(submitted.state === 'done' ? submitted.result.files : []);
    assert.equal(files.length, 3);
    for (const file of files) {
      const meta = await sharp(file.data).metadata();
      assert.deepEqual([meta.format, meta.width, meta.height], ['png', 756, 1344]);
      assert.deepEqual([file.width, file.height, file.mime], [756, 1344, 'image/png']);
    }
    assert.ok(!files[0]!.data.equals(files[1]!.data), 'each output differs');
  });

  it('queues an async modality like a real provider: pending until its latency has passed, then the result', async () => {
    const j = job({ model: video, prompt: 'waves', params: { duration_s: 5, aspect_ratio: '16:9' } });
    const before = Date.now();
    const submitted = await simulator.submit(j, ctx());
    assert.equal(submitted.state, 'pending');
    if (submitted.state !== 'pending') return;
    assert.match(submitted.providerJobId, /^sim_/);
    assert.equal((await simulator.poll(j, submitted.providerJobId, ctx())).state, 'pending');
    // A fresh simulator (another worker) can poll the same job: the id carries its state.
    const another = createSimulator({ asyncLatencyMs: 200 });
    const polled = await waitFor(
      async () => {
        const status = await another.poll(j, submitted.providerJobId, ctx());
        return status.state === 'done' ? status : undefined;
      },
      5_000,
      'the simulated job to finish',
    );
    assert.ok(Date.now() - before >= 200, 'done only once its latency has passed');
    assert.equal(made(polled.result.files)[0]!.mime, 'video/mp4');
  });

  it('uses #slow as an async job latency, and fails a finished job on #fail', async () => {
    const j = job({ model: video, prompt: 'x #slow:50 #fail', params: { duration_s: 5 } });
    const submitted = await simulator.submit(j, ctx());
    assert.equal(submitted.state, 'pending');
    const providerJobId = submitted.state === 'pending' ? submitted.providerJobId : '';
    // Polled as a worker polls it, pending until its 50 ms have passed; then it fails.
    await assert.rejects(
      waitFor(async () => (await simulator.poll(j, providerJobId, ctx())).state === 'done', 5_000, 'the simulated job to finish'),
      (err: unknown) => err instanceof ProviderError && err.code === 'provider_error' && !err.retryable,
    );
  });

  it('fails a sync job with a non-retryable provider_error on #fail', async () => {
    await assert.rejects(simulator.submit(job({ prompt: 'x #fail' }), ctx()), (err: unknown) => err instanceof ProviderError && err.code === 'provider_error' && !err.retryable);
  });

  it('reports #tokens:<n> output tokens for chat, never more than max_tokens', async () => {
    for (const [prompt, maxTokens, expected] of [
      ['hi #tokens:300', 1024, 300],
      ['hi #tokens:300', 100, 100],
    ] as const) {
      const submitted = await simulator.submit(job({ model: chat, prompt, params: { max_tokens: maxTokens, messages: [{ content: prompt }] } }), ctx());
      assert.equal(submitted.state, 'done');
      if (submitted.state !== 'done') return;
      assert.equal(submitted.result.usage?.outputTokens, expected);
      assert.equal(submitted.result.text?.split(' ').length, expected);
    }
  });

  it('stops waiting when its activity is cancelled', async () => {
    const abort = new AbortController();
    const started = Date.now();
    const run = simulator.submit(job({ prompt: '#slow:10000' }), ctx(abort.signal));
    // The cancel comes while the 10 s job is waiting; its wait ends within one cancellation check.
    setTimeout(() => abort.abort(), 200);
    await assert.rejects(run, (err) => err === abort.signal.reason, 'it ends with the cancellation, not another failure');
    assert.ok(Date.now() - started >= 150, 'it was waiting when the cancel came');
    assert.ok(Date.now() - started < 2000);
  });
});
