import type { IncomingMessage } from 'node:http';
import https from 'node:https';
import { pinnedLookup, vetHost, type HostLookup, type VettedAddress } from '../../lib/pinned-address';
import type { Storage } from '../../storage/types';
import { ApiError } from '../errors';

// Input files given by URL (image_url, audio_url, video_url). Our own signed file URLs are read
// straight from storage; anything else must be a public https URL, fetched with the guard below.

export interface InputFile {
  data: Buffer;
  contentType: string;
  /** `own`: one of this service's signed file URLs, read from storage; `remote`: fetched over https. */
  source: 'own' | 'remote';
}

export type { HostLookup } from '../../lib/pinned-address';

export interface ResolveInputOptions {
  /** The request field the URL came in (e.g. `image_url`); every refusal names it. */
  param: string;
  storage: Pick<Storage, 'checkSignedUrl' | 'open'>;
  /** Accepted media types: `image/` accepts every image type, `image/png` only PNG. */
  allowedTypes: readonly string[];
  maxBytes: number;
  /** ALLOW_PRIVATE_INPUT_URLS: skip the address check (tests and development only). */
  allowPrivateAddresses?: boolean;
  /** For the whole fetch, redirects included; default INPUT_FETCH_TIMEOUT_MS. */
  timeoutMs?: number;
  /** Test seams: how host names resolve, which addresses count as public, which CA signs test servers. */
  lookup?: HostLookup;
  isAllowedAddress?: (ip: string) => boolean;
  ca?: string | Buffer;
}

export const MAX_REDIRECTS = 3;
/** How long fetching one input URL may take, redirects included (api/admission/request-budget.ts counts on it). */
export const INPUT_FETCH_TIMEOUT_MS = 15_000;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

const mediaTypeOf = (header: string | undefined) => (header ?? '').split(';')[0]!.trim().toLowerCase();
const typeAllowed = (type: string, allowed: readonly string[]) => type !== '' && allowed.some((a) => (a.endsWith('/') ? type.startsWith(a) : type === a));

/** The file a caller's input URL names, or a 400 `validation_failed` naming `opts.param`. */
export async function resolveInputUrl(url: string, opts: ResolveInputOptions): Promise<InputFile> {
  const refuse = (message: string) => new ApiError('validation_failed', `${opts.param}: ${message}`, { param: opts.param });
  if (!URL.canParse(url)) throw refuse('is not a valid URL.');
  const parsed = new URL(url);

  const own = await opts.storage.checkSignedUrl(parsed);
  if (own.kind === 'invalid') throw refuse('this file URL is invalid or has expired; create a fresh one (POST /v1/uploads, or fetch the resource again).');
  if (own.kind === 'valid') return readOwnFile(own.key, opts, refuse);
  return fetchRemote(parsed, opts, refuse);
}

async function readOwnFile(key: string, opts: ResolveInputOptions, refuse: (m: string) => ApiError): Promise<InputFile> {
  const file = await opts.storage.open(key);
  if (!file) throw refuse('no file exists at this URL yet; PUT the file to the upload_url first.');
  if (!typeAllowed(file.contentType, opts.allowedTypes)) {
    file.stream.destroy();
    throw refuse(`the file is ${file.contentType}; expected ${opts.allowedTypes.join(', ')}.`);
  }
  if (file.size > opts.maxBytes) {
    file.stream.destroy();
    throw refuse(`the file is larger than ${opts.maxBytes} bytes.`);
  }
  return { data: await readLimited(file.stream, opts.maxBytes, refuse), contentType: file.contentType, source: 'own' };
}

async function fetchRemote(start: URL, opts: ResolveInputOptions, refuse: (m: string) => ApiError): Promise<InputFile> {
  const timeoutMs = opts.timeoutMs ?? INPUT_FETCH_TIMEOUT_MS;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    let url = start;
    for (let redirects = 0; ; redirects++) {
      const address = await vetAddress(url, opts, refuse);
      const res = await get(url, address, opts, controller.signal).catch((err: unknown) => {
        throw controller.signal.aborted ? refuse(`the server did not answer within ${timeoutMs / 1000} s.`) : refuse(`could not be fetched (${describe(err)}).`);
      });
      const location = res.headers.location;
      if (REDIRECTS.has(res.statusCode ?? 0) && location) {
        res.destroy();
        if (redirects === MAX_REDIRECTS) throw refuse(`more than ${MAX_REDIRECTS} redirects.`);
        // Every hop is checked again from the start: scheme, then every address of its host.
        url = new URL(location, url);
        continue;
      }
      const status = res.statusCode ?? 0;
      if (status < 200 || status > 299) {
        res.destroy();
        throw refuse(`the server answered HTTP ${status}.`);
      }
      const contentType = mediaTypeOf(res.headers['content-type']);
      if (!typeAllowed(contentType, opts.allowedTypes)) {
        res.destroy();
        throw refuse(`the server sent ${contentType || 'no Content-Type'}; expected ${opts.allowedTypes.join(', ')}.`);
      }
      if (Number(res.headers['content-length']) > opts.maxBytes) {
        res.destroy();
        throw refuse(`the file is larger than ${opts.maxBytes} bytes.`);
      }
      try {
        return { data: await readLimited(res, opts.maxBytes, refuse), contentType, source: 'remote' };
      } catch (err) {
        if (controller.signal.aborted) throw refuse(`the server did not send the file within ${timeoutMs / 1000} s.`);
        if (err instanceof ApiError) throw err;
        // The remote server broke off mid-body: its fault, and the caller's to fix or retry, not ours.
        throw refuse(`the server broke off while sending the file (${describe(err)}).`);
      }
    }
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The address to connect to, once the scheme is https and every address of the host is allowed.
 * The connection is then pinned to it, so DNS cannot answer differently between check and connect.
 */
async function vetAddress(url: URL, opts: ResolveInputOptions, refuse: (m: string) => ApiError): Promise<VettedAddress> {
  if (url.protocol !== 'https:') throw refuse('only https URLs can be fetched (or a file URL of this service).');
  const vetted = await vetHost(url, { ...opts, allowPrivateAddresses: opts.allowPrivateAddresses ?? false });
  if (!vetted.ok) throw refuse(vetted.reason.replace('are allowed', 'can be fetched'));
  return vetted.pinned;
}

function get(url: URL, pinned: VettedAddress, opts: ResolveInputOptions, signal: AbortSignal): Promise<IncomingMessage> {
  const lookup = pinnedLookup(pinned);
  return new Promise((resolve, reject) => {
    const req = https.request(
      url,
      {
        method: 'GET',
        // No pooled socket: each request connects to the address vetted for it, and nothing else.
        agent: false,
        lookup,
        signal,
        headers: {
          Accept: opts.allowedTypes.map((t) => (t.endsWith('/') ? `${t}*` : t)).join(', '),
          'Accept-Encoding': 'identity',
          'User-Agent': 'generation-service input fetcher',
        },
        ...(opts.ca !== undefined && { ca: opts.ca }),
      },
      resolve,
    );
    req.once('error', reject);
    req.end();
  });
}

/** The whole stream, or a refusal as soon as it passes `maxBytes` (the rest is never read). */
async function readLimited(stream: NodeJS.ReadableStream & { destroy(): void }, maxBytes: number, refuse: (m: string) => ApiError): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of stream) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
    total += buffer.length;
    if (total > maxBytes) {
      stream.destroy();
      throw refuse(`the file is larger than ${maxBytes} bytes.`);
    }
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}

function describe(err: unknown): string {
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' ? code : 'connection failed';
}
