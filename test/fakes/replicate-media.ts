import sharp from 'sharp';
import { renderImage, renderVideo, upscaleImage, videoSize } from '../../activities/providers/simulator-media';
import { ASPECT_RATIOS, imageSize, type AspectRatio } from '../../domain/image-sizes';

// The files the fake Replicate's models make, rendered at run time (no media is committed): a PNG,
// JPEG or WebP per image, the input upscaled for the upscalers, an MP4 with audio for video. What
// a model makes is read from its input, as the models' API pages describe them.

export interface OutputFile {
  data: Buffer;
  mime: string;
  extension: string;
}

export type ModelKind = 'image' | 'upscale' | 'video';

/** What a model makes, from its name when it is run by name, else from the fields of its input. */
export function kindOf(model: string | undefined, input: Record<string, unknown>): ModelKind {
  if (typeof input.img === 'string' || (typeof input.image === 'string' && ('scale' in input || 'upscale' in input))) return 'upscale';
  if (model?.includes('veo') || 'duration' in input) return 'video';
  return 'image';
}

/** How many files a run makes: models that take `num_outputs` answer a list, the rest one URL. */
export function outputCount(input: Record<string, unknown>): { count: number; list: boolean } {
  const wanted = input.num_outputs;
  return typeof wanted === 'number' ? { count: Math.max(1, Math.min(4, Math.trunc(wanted))), list: true } : { count: 1, list: false };
}

export async function renderOutput(kind: ModelKind, input: Record<string, unknown>, seed: string): Promise<OutputFile> {
  if (kind === 'upscale') return upscale(input);
  if (kind === 'video') {
    const aspectRatio = typeof input.aspect_ratio === 'string' ? input.aspect_ratio : '16:9';
    const durationS = typeof input.duration === 'number' ? input.duration : 8;
    const file = await renderVideo({ durationS, ...videoSize(aspectRatio), seed, audio: input.generate_audio !== false });
    return { data: file.data, mime: 'video/mp4', extension: 'mp4' };
  }
  const ratio = ASPECT_RATIOS.includes(input.aspect_ratio as AspectRatio) ? (input.aspect_ratio as AspectRatio) : '1:1';
  const format = input.output_format === 'webp' || input.output_format === 'jpg' ? input.output_format : 'png';
  const png = await renderImage({ ...imageSize(ratio), seed, format: format === 'webp' ? 'webp' : 'png' });
  if (format === 'jpg') return { data: await sharp(png.data).jpeg().toBuffer(), mime: 'image/jpeg', extension: 'jpg' };
  return { data: png.data, mime: png.mime, extension: png.extension };
}

/** Downloads the input as Replicate's workers do; a URL that does not answer fails the run. */
async function upscale(input: Record<string, unknown>): Promise<OutputFile> {
  const source = String(input.image ?? input.img);
  const answer = await fetch(source, { signal: AbortSignal.timeout(10_000) }).catch((err: Error) => {
    throw new Error(`Could not download the input image ${source}: ${err.message}`);
  });
  if (!answer.ok) throw new Error(`Could not download the input image ${source}: HTTP ${answer.status}`);
  const scale = Number(input.scale ?? input.upscale ?? 2) >= 3 ? 4 : 2;
  const faceEnhance = input.face_enhance === true || input.face_upsample === true;
  const file = await upscaleImage({ input: Buffer.from(await answer.arrayBuffer()), scaleFactor: scale, faceEnhance });
  return { data: file.data, mime: 'image/png', extension: 'png' };
}
