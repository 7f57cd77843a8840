import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import type { JobInput } from '../../domain/job-input';
import type { KeyPrincipal } from '../../db/repos/api-keys';
import { stockPortraitSvg, type StockAvatar } from '../../domain/avatars';
import { runFfmpegToFile } from '../../lib/ffmpeg';
import { newId } from '../../lib/ids';
import type { Storage } from '../../storage/types';
import { ApiError } from '../errors';
import type { StoredInput } from './inputs';

// The portrait a portrait avatar model animates when the request sends no image_url: a stock
// avatar's rendered portrait (text-to-avatar) or the first frame of the lipsync video. Either is
// stored like any input, so the provider fetches it by signed URL.

/** Stock portraits are rendered and stored once per process and storage, at a fixed key. */
const storedPortraits = new WeakMap<Storage, Map<string, Promise<JobInput>>>();

/** The stock avatar's portrait, a PNG rendered from its SVG (deterministic), as a job input. */
export function stockPortraitInput(storage: Storage, avatar: StockAvatar): Promise<JobInput> {
  let byId = storedPortraits.get(storage);
  if (!byId) storedPortraits.set(storage, (byId = new Map()));
  let input = byId.get(avatar.id);
  if (!input) {
    const storageKey = `avatars/stock/${avatar.id}.png`;
    input = sharp(Buffer.from(stockPortraitSvg(avatar)))
      .png()
      .toBuffer()
      .then(async (png) => {
        await storage.put(storageKey, png, 'image/png');
        return { storageKey, contentType: 'image/png' };
      });
    // A failed render or store is tried again by the next request, not remembered.
    input.catch(() => byId!.delete(avatar.id));
    byId.set(avatar.id, input);
  }
  return input;
}

/**
 * The first frame of a lipsync video as a PNG job input, stored next to the request's other
 * inputs; 400 naming video_url when the file has no frame ffmpeg can decode.
 */
export async function firstFrameInput(storage: Storage, principal: KeyPrincipal, video: StoredInput): Promise<JobInput> {
  const png = await firstFramePng(video.data).catch(() => undefined);
  if (!png || png.length === 0) {
    throw new ApiError('validation_failed', 'video_url: the file has no video frame that can be decoded (a portrait model animates its first frame).', {
      param: 'video_url',
    });
  }
  const storageKey = `inputs/${principal.organizationId}/${newId('inp')}/image.png`;
  await storage.put(storageKey, png, 'image/png');
  return { storageKey, contentType: 'image/png' };
}

/**
 * Decoding one frame takes well under a second; the cap keeps a hostile file within the request's
 * untimed work (api/admission/request-budget.ts).
 */
const FIRST_FRAME_TIMEOUT_MS = 10_000;

/** ffmpeg reads the video from a file (an MP4's index may sit at its end, out of a pipe's reach). */
async function firstFramePng(video: Buffer): Promise<Buffer> {
  const dir = await mkdtemp(join(tmpdir(), 'avatar-frame-'));
  try {
    const input = join(dir, 'input');
    await writeFile(input, video);
    return await runFfmpegToFile('png', (output) => ['-i', input, '-map', '0:v:0', '-frames:v', '1', '-f', 'image2', '-c:v', 'png', output], undefined, FIRST_FRAME_TIMEOUT_MS);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
