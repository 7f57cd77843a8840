import sharp from 'sharp';
import type { JobInput } from '../../domain/job-input';
import type { KeyPrincipal } from '../../db/repos/api-keys';
import { probe } from '../../lib/ffmpeg';
import { newId } from '../../lib/ids';
import { extensionOf } from '../../storage/mime';
import type { ApiDeps } from '../context';
import { ApiError } from '../errors';
import { resolveInputUrl } from './fetch-input';

// Input files named by URL (image_url, audio_url, video_url): fetched once by the API, checked,
// and stored, so the job (and any retry of it) reads a copy that cannot change or disappear.

export const INPUT_KINDS = {
  image: { allowedTypes: ['image/png', 'image/jpeg', 'image/webp'], maxBytes: 20 * 1024 * 1024 },
  audio: { allowedTypes: ['audio/'], maxBytes: 50 * 1024 * 1024 },
  video: { allowedTypes: ['video/'], maxBytes: 100 * 1024 * 1024 },
} as const;

export type InputKind = keyof typeof INPUT_KINDS;

export interface StoredInput extends JobInput {
  data: Buffer;
}

export async function fetchAndStoreInput(
  deps: Pick<ApiDeps, 'storage' | 'allowPrivateInputUrls'>,
  principal: KeyPrincipal,
  url: string,
  kind: InputKind,
  param: string,
): Promise<StoredInput> {
  const file = await resolveInputUrl(url, { param, storage: deps.storage, ...INPUT_KINDS[kind], allowPrivateAddresses: deps.allowPrivateInputUrls });
  const storageKey = `inputs/${principal.organizationId}/${newId('inp')}/${kind}.${extensionOf(file.contentType) ?? 'bin'}`;
  await deps.storage.put(storageKey, file.data, file.contentType);
  return { storageKey, contentType: file.contentType, data: file.data };
}

/** Fetches and stores one input file for a request; see createInputFetcher. */
export type InputFetcher = (url: string, kind: InputKind, param: string) => Promise<StoredInput>;

/**
 * Fetches and stores each distinct (kind, url) once per request, however many models use it: a
 * comparison sends one `image_url` to up to 12 models, and they share one stored copy. A failed
 * fetch stays memoized; the request fails with it anyway.
 */
export function createInputFetcher(deps: Pick<ApiDeps, 'storage' | 'allowPrivateInputUrls'>, principal: KeyPrincipal): InputFetcher {
  const fetched = new Map<string, Promise<StoredInput>>();
  return (url, kind, param) => {
    const key = `${kind} ${url}`;
    let input = fetched.get(key);
    if (!input) {
      input = fetchAndStoreInput(deps, principal, url, kind, param);
      fetched.set(key, input);
    }
    return input;
  };
}

/** An audio or video input's length, or 400 naming `param` when it has no decodable audio. */
export async function audioDurationMs(input: StoredInput, param: string): Promise<number> {
  const refuse = () => new ApiError('validation_failed', `${param}: the file has no audio that can be decoded.`, { param });
  try {
    const info = await probe(input.data);
    const duration = Number(info.format.duration);
    if (!info.streams.some((s) => s.codec_type === 'audio') || !(duration > 0)) throw refuse();
    return Math.round(duration * 1000);
  } catch (err) {
    if (err instanceof ApiError) throw err;
    throw refuse();
  }
}

/** An image input's size, or 400 naming `param` when it is not a readable image. */
export async function imageDimensions(input: StoredInput, param: string): Promise<{ width: number; height: number }> {
  try {
    const meta = await sharp(input.data).metadata();
    if (meta.width && meta.height) return { width: meta.width, height: meta.height };
  } catch {
    // fall through
  }
  throw new ApiError('validation_failed', `${param}: the file is not an image that can be decoded.`, { param });
}

/** An optional `image_url`: fetched, stored and checked to be a decodable image, as job inputs. */
export async function optionalImageInput(fetchInput: InputFetcher, url: string | undefined): Promise<{ image: JobInput } | undefined> {
  if (!url) return undefined;
  const image = await fetchInput(url, 'image', 'image_url');
  await imageDimensions(image, 'image_url');
  return { image: jobInput(image) };
}

export function jobInput(input: StoredInput): JobInput {
  return { storageKey: input.storageKey, contentType: input.contentType };
}
