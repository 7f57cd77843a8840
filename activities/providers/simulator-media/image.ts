import sharp from 'sharp';
import type { ProducedFile } from '../types';
import { drawLabel, type MediaLabel } from './label';
import { seedDigest } from './seed';

export interface ImageRequest {
  width: number;
  height: number;
  seed: string;
  format: 'png' | 'webp';
  /** What the simulator ran, drawn along the bottom edge; the providers' test fakes leave it out. */
  label?: MediaLabel;
}

/**
 * A vertical two-colour gradient picked by the seed, with the label when there is one. Rows of one colour make the image cheap to
 * encode (about 7 ms for a 1024x1024 PNG, against 35 ms for a gradient that changes along both
 * axes), which keeps the simulator off the critical path of what it stands in for.
 */
export async function renderImage({ width, height, seed, format, label }: ImageRequest): Promise<ProducedFile> {
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1) {
    throw new RangeError(`Image size must be positive integers, got ${width}x${height}.`);
  }
  const raw = gradient(seedDigest(seed, 'image'), width, height);
  if (label) drawLabel(raw, width, height, label);
  const image = sharp(raw, { raw: { width, height, channels: 3 } });
  if (format === 'webp') {
    const data = await image.webp({ quality: 85, effort: 0 }).toBuffer();
    return { data, mime: 'image/webp', extension: 'webp', width, height };
  }
  const data = await image.png({ compressionLevel: 6, adaptiveFiltering: false }).toBuffer();
  return { data, mime: 'image/png', extension: 'png', width, height };
}

function gradient(digest: Buffer, width: number, height: number): Buffer {
  const rowBytes = width * 3;
  const raw = Buffer.allocUnsafe(rowBytes * height);
  const pixel = Buffer.alloc(3);
  for (let y = 0; y < height; y++) {
    const t = height > 1 ? y / (height - 1) : 0;
    for (let c = 0; c < 3; c++) pixel[c] = Math.round(digest[c]! + (digest[c + 3]! - digest[c]!) * t);
    raw.fill(pixel, y * rowBytes, (y + 1) * rowBytes);
  }
  return raw;
}
