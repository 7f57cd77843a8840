import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import sharp from 'sharp';
import type { Modality } from '../../domain/modalities';
import { OUTPUT_TYPES, sniffMediaType } from '../../domain/output-limits';
import { probe, type ProbeResult } from '../../lib/ffmpeg';
import { createSemaphore } from '../../lib/semaphore';
import { pinnedLookup, vetHost } from '../../lib/pinned-address';
import { extensionOf } from '../../storage/mime';
import type { Storage } from '../../storage/types';
import { answerTooLarge } from './capped-answers';
import { badOutput, failureFromNetwork, parseRetryAfter, PROVIDER_ERROR_CODES, unreachable } from './http-failure';
import { ProviderError, type ProviderFile } from './types';

// A real provider's output, from its URL (theirs expire), base64 or response body into our
// storage: streamed through a byte counter to a temporary file, so nothing past the modality's cap
// is read, and never held whole in memory; its type read from its first bytes; its width, height
// and duration read from the file itself. Then the file goes to storage as is.

const MAX_REDIRECTS = 3;
const HEAD_BYTES = 32;

export interface IngestOptions {
  provider: string;
  modality: Modality;
  capBytes: number;
  storage: Storage;
  /** The storage key without its extension (`outputs/<generation>/<position>`). */
  keyBase: string;
  signal: AbortSignal;
  /** For fetching one URL, redirects and body included. */
  timeoutMs: number;
  /**
   * The provider's configured origin: its own URLs are fetched as the operator configured it. Any
   * other host must be https on public addresses (ALLOW_PRIVATE_INPUT_URLS lifts that, for tests).
   */
  trustedOrigin?: string;
  allowPrivateAddresses?: boolean;
}

export interface IngestedFile {
  storageKey: string;
  mime: string;
  width?: number;
  height?: number;
  durationS?: string;
}

export async function ingestProviderFile(file: ProviderFile, opts: IngestOptions): Promise<IngestedFile> {
  const dir = await mkdtemp(join(tmpdir(), 'provider-output-'));
  const path = join(dir, 'file');
  const signal = AbortSignal.any([opts.signal, AbortSignal.timeout(opts.timeoutMs)]);
  try {
    const source = await openSource(file, opts, signal);
    const head = await saveCapped(source, path, opts, signal);
    const mime = sniffMediaType(head, opts.modality);
    if (!mime || !OUTPUT_TYPES[opts.modality].includes(mime)) {
      throw badOutput(
        opts.provider,
        `a ${opts.modality} output must be ${OUTPUT_TYPES[opts.modality].join(', ')}, and this file is ${mime ?? 'of an unknown type'}${file.mime ? ` (declared ${file.mime})` : ''}`,
      );
    }
    const measured = await measure(path, mime, opts.provider);
    const storageKey = `${opts.keyBase}.${extensionOf(mime)}`;
    await opts.storage.putFile(storageKey, path, mime);
    return { storageKey, mime, ...measured };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function openSource(file: ProviderFile, opts: IngestOptions, signal: AbortSignal): Promise<Readable> {
  switch (file.kind) {
    case 'bytes':
      return Readable.from([file.data]);
    case 'stream':
      return Readable.from(file.body);
    case 'url':
      return fetchOutput(file.url, opts, signal);
  }
}

async function fetchOutput(raw: string, opts: IngestOptions, signal: AbortSignal): Promise<IncomingMessage> {
  if (!URL.canParse(raw)) throw badOutput(opts.provider, `its output URL is not a URL (${raw.slice(0, 100)})`);
  let url = new URL(raw);
  for (let redirects = 0; ; redirects++) {
    const res = await get(url, opts, signal);
    const status = res.statusCode ?? 0;
    if ([301, 302, 303, 307, 308].includes(status) && res.headers.location && redirects < MAX_REDIRECTS) {
      res.destroy();
      url = new URL(res.headers.location, url);
      continue;
    }
    if (status >= 200 && status <= 299) {
      if (Number(res.headers['content-length']) > opts.capBytes) {
        res.destroy();
        throw tooLarge(opts);
      }
      return res;
    }
    res.destroy();
    // The job is done and paid for: an answer a retry may get past is retried (after its Retry-After).
    if (status >= 500) throw new ProviderError(PROVIDER_ERROR_CODES.error, `${opts.provider}'s output URL answered HTTP ${status}.`, true);
    if (status === 408) throw new ProviderError(PROVIDER_ERROR_CODES.timeout, `${opts.provider}'s output URL timed out the download (HTTP 408).`, true);
    if (status === 429) {
      const retryAfterMs = parseRetryAfter(res.headers['retry-after']);
      throw new ProviderError(
        PROVIDER_ERROR_CODES.rateLimited,
        `${opts.provider}'s output URL is rate limiting downloads (HTTP 429).`,
        true,
        retryAfterMs === undefined ? {} : { retryAfterMs },
      );
    }
    throw badOutput(opts.provider, `its output URL answered HTTP ${status}`);
  }
}

/** One GET, to the provider's own origin as configured, or to a vetted public https address. */
async function get(url: URL, opts: IngestOptions, signal: AbortSignal): Promise<IncomingMessage> {
  const trusted = opts.trustedOrigin !== undefined && url.origin === opts.trustedOrigin;
  let lookup: ReturnType<typeof pinnedLookup> | undefined;
  if (!trusted) {
    if (url.protocol !== 'https:' && !opts.allowPrivateAddresses) throw badOutput(opts.provider, `its output URL is not https (${url.origin})`);
    const vetted = await vetHost(url, { allowPrivateAddresses: opts.allowPrivateAddresses ?? false });
    // A name that does not resolve now may resolve on the next try (DNS is down); a refused address will not.
    if (!vetted.ok && vetted.unresolved) throw unreachable(opts.provider, `${url.host}: ${vetted.reason}`, `The output URL of ${opts.provider}`);
    if (!vetted.ok) throw badOutput(opts.provider, `its output URL is refused: ${vetted.reason}`);
    lookup = pinnedLookup(vetted.pinned);
  }
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = client.request(url, { method: 'GET', signal, ...(lookup && { lookup, agent: false }) }, resolve);
    req.on('error', (err) => reject(failureFromNetwork(opts.provider, err, opts.signal)));
    req.end();
  });
}

/** Streams the source to `path`, failing as soon as it passes the cap; returns its first bytes. */
async function saveCapped(source: Readable, path: string, opts: IngestOptions, signal: AbortSignal): Promise<Buffer> {
  let size = 0;
  let head = Buffer.alloc(0);
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      if (size > opts.capBytes) return done(tooLarge(opts));
      if (head.length < HEAD_BYTES) head = Buffer.concat([head, chunk.subarray(0, HEAD_BYTES - head.length)]);
      done(null, chunk);
    },
  });
  const file = createWriteStream(path);
  let writeFailed = false;
  file.once('error', () => (writeFailed = true));
  try {
    await pipeline(source, counter, file, { signal });
  } catch (err) {
    if (err instanceof ProviderError) throw err;
    // A streamed answer the adapter's fetch cut off at the same cap (capped-answers.ts).
    if (answerTooLarge(err)) throw tooLarge(opts);
    // Our disk, not the provider (full, read-only): thrown as is, the generation's failure is ours
    // (`internal_error`, `error_source: "gateway"`), and no other provider is paid to redo the job.
    if (writeFailed && !opts.signal.aborted) throw err;
    throw failureFromNetwork(opts.provider, err, opts.signal);
  }
  if (size === 0) throw badOutput(opts.provider, 'an output file is empty');
  return head;
}

/**
 * Reading dimensions and durations is CPU work (sharp, an ffprobe process each): a few at a time
 * per worker, so that a wave of jobs finishing together queues here instead of starting hundreds
 * of probes at once and taking the worker's memory and both cores with them.
 */
const measuring = createSemaphore(4);

function measure(path: string, mime: string, provider: string): Promise<Omit<IngestedFile, 'storageKey' | 'mime'>> {
  return measuring(() => measureNow(path, mime, provider));
}

async function measureNow(path: string, mime: string, provider: string): Promise<Omit<IngestedFile, 'storageKey' | 'mime'>> {
  let probed: ProbeResult;
  try {
    if (mime.startsWith('image/')) {
      const { width, height } = await sharp(path).metadata();
      if (!width || !height) throw new Error('no dimensions');
      return { width, height };
    }
    if (mime === 'model/gltf-binary') return {};
    probed = await probe(path);
  } catch {
    throw badOutput(provider, `an output file (${mime}) cannot be read`);
  }
  const duration = Number(probed.format.duration);
  const video = probed.streams.find((s) => s.codec_type === 'video');
  // The container does not tell them apart (MP4 holds either): a video needs a picture, audio a sound.
  if (mime.startsWith('video/') && !video?.width) throw badOutput(provider, `a video output (${mime}) has no video stream`);
  if (mime.startsWith('audio/') && !probed.streams.some((s) => s.codec_type === 'audio')) throw badOutput(provider, `an audio output (${mime}) has no audio stream`);
  return {
    ...(video?.width && video.height && { width: video.width, height: video.height }),
    ...(duration > 0 && { durationS: String(Math.round(duration * 1000) / 1000) }),
  };
}

function tooLarge(opts: IngestOptions): ProviderError {
  return new ProviderError(
    PROVIDER_ERROR_CODES.tooLarge,
    `${opts.provider} produced a ${opts.modality} output larger than ${Math.round(opts.capBytes / 1024 / 1024)} MB, the cap for ${opts.modality}; it was not kept.`,
  );
}
