import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { DEFAULT_ASPECT_RATIO, imageSize, type AspectRatio } from '../../domain/image-sizes';
import { parseSimulatorDirectives, shouldFail } from '../../domain/simulator-directives';
import { ProviderError, type ProducedFile, type ProviderAdapter, type ProviderContext, type ProviderJob } from './types';

// The built-in provider (decisions §7): runs every model offline and writes real media files.
// Output depends only on model, prompt, seed and position, so a seed reproduces an image exactly.

const HEARTBEAT_EVERY_MS = 500;

export function createSimulator(): ProviderAdapter {
  return {
    name: 'simulator',
    async generate(job, ctx) {
      const directives = parseSimulatorDirectives(job.prompt);
      await sleepWithHeartbeats(directives.slowMs, ctx);
      if (shouldFail(directives, job.model.slug)) {
        throw new ProviderError('provider_error', 'The simulator failed this generation because the prompt contains #fail.');
      }
      switch (job.model.modality) {
        case 'image':
          return { files: await renderImages(job) };
        default:
          throw new ProviderError('provider_error', `The simulator cannot produce ${job.model.modality} yet.`);
      }
    },
  };
}

async function sleepWithHeartbeats(ms: number, ctx: ProviderContext): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    ctx.signal.throwIfAborted();
    ctx.heartbeat();
    await new Promise((resolve) => setTimeout(resolve, Math.min(HEARTBEAT_EVERY_MS, deadline - Date.now())));
  }
  ctx.signal.throwIfAborted();
}

function seedOf(job: ProviderJob): string {
  return typeof job.params.seed === 'number' ? `seed:${job.params.seed}` : `gen:${job.generationId}`;
}

async function renderImages(job: ProviderJob): Promise<ProducedFile[]> {
  const aspectRatio = (job.params.aspect_ratio as AspectRatio | undefined) ?? DEFAULT_ASPECT_RATIO;
  const { width, height } = imageSize(aspectRatio);
  const count = typeof job.params.num_outputs === 'number' ? job.params.num_outputs : 1;
  const files: ProducedFile[] = [];
  for (let position = 0; position < count; position++) {
    const digest = createHash('sha256')
      .update(`${job.model.slug}\n${job.prompt}\n${seedOf(job)}\n${position}`)
      .digest();
    files.push({ data: await renderGradient(digest, width, height), mime: 'image/png', extension: 'png', width, height });
  }
  return files;
}

/**
 * A vertical two-colour gradient. Rows of one colour make the PNG cheap to encode (about 7 ms
 * for 1024x1024, against 35 ms for a gradient that changes along both axes), which keeps the
 * simulator off the critical path of what it stands in for.
 */
async function renderGradient(digest: Buffer, width: number, height: number): Promise<Buffer> {
  const rowBytes = width * 3;
  const raw = Buffer.allocUnsafe(rowBytes * height);
  const pixel = Buffer.alloc(3);
  for (let y = 0; y < height; y++) {
    const t = height > 1 ? y / (height - 1) : 0;
    for (let c = 0; c < 3; c++) pixel[c] = Math.round(digest[c]! + (digest[c + 3]! - digest[c]!) * t);
    raw.fill(pixel, y * rowBytes, (y + 1) * rowBytes);
  }
  return sharp(raw, { raw: { width, height, channels: 3 } })
    .png({ compressionLevel: 6, adaptiveFiltering: false })
    .toBuffer();
}
