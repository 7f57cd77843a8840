import sharp from 'sharp';
import { ProviderError, type ProducedFile } from '../types';
import { drawLabel, type MediaLabel } from './label';
import { seedDigest } from './seed';

export interface ImageToImageRequest {
  input: Buffer;
  width: number;
  height: number;
  seed: string;
  /** What the simulator ran, drawn along the bottom edge (see ImageRequest). */
  label?: MediaLabel;
}

/** How much of the output is the input image; the rest is the seed's tint. */
const INPUT_WEIGHT = 0.7;

/**
 * Image-to-image: the input (upright, first frame) cropped to the output's aspect ratio and
 * resized to its size, then blended with a seeded two-colour tint, as PNG. The output therefore
 * looks like its input (two inputs give visibly different outputs) and still depends on the seed,
 * prompt and position like a text-to-image output, and carries the same label. An input sharp cannot decode is `invalid_input`.
 */
export async function renderImageFromInput({ input, width, height, seed, label }: ImageToImageRequest): Promise<ProducedFile> {
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1) {
    throw new RangeError(`Image size must be positive integers, got ${width}x${height}.`);
  }
  const pixels = await sharp(input)
    .autoOrient()
    .resize(width, height, { fit: 'cover', position: 'centre' })
    .toColourspace('srgb')
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true })
    .then(({ data, info }) => {
      if (info.channels !== 3) throw new Error(`${info.channels} channels`);
      return data;
    })
    .catch(() => {
      throw new ProviderError('invalid_input', 'The input image could not be decoded.');
    });
  tint(pixels, seedDigest(seed, 'image-to-image'), width, height);
  if (label) drawLabel(pixels, width, height, label);
  const data = await sharp(pixels, { raw: { width, height, channels: 3 } })
    .png({ compressionLevel: 6 })
    .toBuffer();
  return { data, mime: 'image/png', extension: 'png', width, height };
}

/** Blends every row, in place, towards a colour that runs from the digest's first colour to its second. */
function tint(pixels: Buffer, digest: Buffer, width: number, height: number): void {
  const rowBytes = width * 3;
  for (let y = 0; y < height; y++) {
    const t = height > 1 ? y / (height - 1) : 0;
    const colour = [0, 1, 2].map((c) => (1 - INPUT_WEIGHT) * (digest[c]! + (digest[c + 3]! - digest[c]!) * t));
    for (let offset = y * rowBytes; offset < (y + 1) * rowBytes; offset += 3) {
      for (let c = 0; c < 3; c++) pixels[offset + c] = Math.round(INPUT_WEIGHT * pixels[offset + c]! + colour[c]!);
    }
  }
}
