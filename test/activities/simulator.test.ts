import assert from 'node:assert/strict';
import sharp from 'sharp';
import { createSimulator } from '../../activities/providers/simulator';
import { ProviderError } from '../../activities/providers/types';
import { findModel } from '../../domain/catalog';

const model = findModel('flux-schnell')!;
const ctx = () => ({ heartbeat: () => undefined, signal: new AbortController().signal });

describe('simulator', () => {
  it('renders one PNG per requested output at the aspect ratio size', async () => {
    const result = await createSimulator().generate(
      { generationId: 'gen_a', model, prompt: 'tall', params: { aspect_ratio: '9:16', num_outputs: 3 } },
      ctx(),
    );
    assert.equal(result.files.length, 3);
    for (const file of result.files) {
      const meta = await sharp(file.data).metadata();
      assert.deepEqual([meta.format, meta.width, meta.height], ['png', 756, 1344]);
      assert.deepEqual([file.width, file.height, file.mime], [756, 1344, 'image/png']);
    }
    assert.ok(!result.files[0]!.data.equals(result.files[1]!.data), 'each output differs');
  });

  it('fails with a non-retryable provider_error on #fail', async () => {
    await assert.rejects(
      createSimulator().generate({ generationId: 'gen_b', model, prompt: 'x #fail', params: {} }, ctx()),
      (err: unknown) => err instanceof ProviderError && err.code === 'provider_error' && !err.retryable,
    );
  });

  it('stops waiting when its activity is cancelled', async () => {
    const abort = new AbortController();
    const started = Date.now();
    const run = createSimulator().generate(
      { generationId: 'gen_c', model, prompt: '#slow:10000', params: {} },
      { heartbeat: () => undefined, signal: abort.signal },
    );
    setTimeout(() => abort.abort(), 100);
    await assert.rejects(run);
    assert.ok(Date.now() - started < 2000);
  });
});
