import { randomBytes } from 'node:crypto';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { hugeMp3, musicMp3, speechMp3 } from './elevenlabs-media';

// A local ElevenLabs that the official SDK, pointed at its base URL, talks to unmodified: the same
// paths, the `xi-api-key` header, JSON and multipart bodies, `{detail: {status, message}}` errors
// (FastAPI's field list on a 422), and real MP3 answers. Tests script the next requests (a
// failure, a hang, a bad answer...) and read back what it received. Run as a process, it prints
// `{"baseUrl", "apiKey"}` on stdout and serves until killed (ELEVENLABS_FAKE_PORT,
// ELEVENLABS_FAKE_LATENCY_MS, ELEVENLABS_FAKE_API_KEY).

/** The ElevenLabs endpoints the fake speaks, as scripts name them. */
export type FakeRoute = 'tts' | 'clone' | 'delete_voice' | 'stt' | 'music';

export interface ReceivedFile {
  field: string;
  filename: string;
  type: string;
  data: Buffer;
}

export interface ReceivedRequest {
  route: FakeRoute | 'unknown';
  method: string;
  path: string;
  query: Record<string, string>;
  apiKey?: string;
  /** A JSON body. */
  json?: Record<string, any>;
  /** A multipart body's text fields and files. */
  fields?: Record<string, string>;
  files?: ReceivedFile[];
}

type Behaviour =
  | { kind: 'fail'; status: number; retryAfter?: string; body?: unknown }
  | { kind: 'hang' }
  | { kind: 'delay'; ms: number }
  | { kind: 'malformed' }
  | { kind: 'missing' }
  | { kind: 'huge'; bytes: number }
  | { kind: 'cut' };

interface Scripted {
  behaviour: Behaviour;
  /** Only a request to this endpoint takes it; any request when absent. */
  on?: FakeRoute;
}

export interface FailOptions {
  on?: FakeRoute;
  retryAfter?: string;
  /** ElevenLabs' `detail.status`, e.g. `system_busy` for a 429; a per-status default otherwise. */
  code?: string;
  message?: string;
}

/** The default voice and one other premade voice; cloned voices join them until deleted. */
export const PREMADE_VOICES = ['JBFqnCBsd6RMkjVDRZzb', '21m00Tcm4TlvDq8ikWAM'];

const DEFAULT_CODES: Record<number, [string, string]> = {
  400: ['invalid_request', 'The request is invalid.'],
  401: ['invalid_api_key', 'Invalid API key'],
  403: ['missing_permissions', 'The API key does not have the permission this request needs.'],
  429: ['too_many_concurrent_requests', 'Too many concurrent requests for your plan; wait for one to finish.'],
  500: ['internal_server_error', 'An internal error occurred.'],
  503: ['service_unavailable', 'The service is temporarily unavailable.'],
};

export async function startFakeElevenLabs(opts: { apiKey?: string; port?: number; latencyMs?: number } = {}) {
  const apiKey = opts.apiKey ?? `sk_fake_${randomBytes(12).toString('hex')}`;
  const received: ReceivedRequest[] = [];
  const voices = new Set(PREMADE_VOICES);
  const deletedVoices: string[] = [];
  const queue: Scripted[] = [];
  let hugeServed = () => 0;

  const push = (behaviour: Behaviour, on?: FakeRoute) => queue.push({ behaviour, ...(on && { on }) });
  const script = {
    /** The next request (to `on`) fails with `status` and ElevenLabs' error body. */
    fail: (status: number, o: FailOptions = {}) => {
      const [code, message] = DEFAULT_CODES[status] ?? ['error', `HTTP ${status}`];
      push({ kind: 'fail', status, ...(o.retryAfter && { retryAfter: o.retryAfter }), body: { detail: { status: o.code ?? code, message: o.message ?? message } } }, o.on);
    },
    /** Eleven Music's refusal of a prompt naming an artist or with harmful content. */
    refuse: (on: FakeRoute = 'music') =>
      push(
        {
          kind: 'fail',
          status: 400,
          body: { detail: { status: 'bad_prompt', message: 'The prompt violates our Terms of Service.', data: { prompt_suggestion: 'An upbeat pop song' } } },
        },
        on,
      ),
    /** Accepts the request and never answers. */
    hang: (on?: FakeRoute) => push({ kind: 'hang' }, on),
    delay: (ms: number, on?: FakeRoute) => push({ kind: 'delay', ms }, on),
    /** 200 with the wrong kind of body: JSON where audio belongs, HTML where JSON belongs. */
    malformedOutput: (on?: FakeRoute) => push({ kind: 'malformed' }, on),
    /** 200 without the output: an empty audio body, or a transcription without `text`. */
    missingOutput: (on?: FakeRoute) => push({ kind: 'missing' }, on),
    /** 200 with an MP3 (a transcript's JSON on `stt`) of more than `bytes`, streamed as it is read. */
    hugeOutput: (bytes: number, on?: FakeRoute) => push({ kind: 'huge', bytes }, on),
    /** 200 and part of the audio, then the connection drops. */
    cutOutput: (on?: FakeRoute) => push({ kind: 'cut' }, on),
  };

  function take(route: FakeRoute): Behaviour | undefined {
    const index = queue.findIndex((s) => !s.on || s.on === route);
    return index < 0 ? undefined : queue.splice(index, 1)[0]!.behaviour;
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake');
    const body = await readBody(req);
    const record: ReceivedRequest = {
      route: routeOf(req.method ?? 'GET', url.pathname),
      method: req.method ?? 'GET',
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      ...(typeof req.headers['xi-api-key'] === 'string' && { apiKey: req.headers['xi-api-key'] }),
      ...(await parseBody(req, url, body)),
    };
    received.push(record);
    if (record.apiKey !== apiKey) return error(res, 401, DEFAULT_CODES[401]!);
    if (record.route === 'unknown') return json(res, 404, { detail: 'Not Found' });
    if (opts.latencyMs) await sleep(opts.latencyMs);

    let behaviour = take(record.route);
    if (behaviour?.kind === 'delay') {
      await sleep(behaviour.ms);
      behaviour = undefined;
    }
    if (behaviour?.kind === 'hang') return;
    if (behaviour?.kind === 'fail') {
      if (behaviour.retryAfter) res.setHeader('Retry-After', behaviour.retryAfter);
      return json(res, behaviour.status, behaviour.body);
    }
    await answer(record, res, behaviour);
  }

  async function answer(r: ReceivedRequest, res: ServerResponse, behaviour: Behaviour | undefined): Promise<void> {
    switch (r.route) {
      case 'tts': {
        if (typeof r.json?.text !== 'string' || !r.json.text) return missingField(res, 'text');
        const voiceId = decodeURIComponent(r.path.split('/')[3] ?? '');
        if (!voices.has(voiceId)) return error(res, 404, ['voice_not_found', `A voice with the voice_id ${voiceId} was not found.`]);
        return audio(res, behaviour, () => speechMp3(r.json!.text));
      }
      case 'music': {
        if (typeof r.json?.prompt !== 'string' && !r.json?.composition_plan) return missingField(res, 'prompt');
        return audio(res, behaviour, () => musicMp3(Number(r.json!.music_length_ms ?? 30_000)), { 'song-id': randomBytes(10).toString('hex') });
      }
      case 'clone': {
        if (!r.fields?.name) return missingField(res, 'name');
        if (!r.files?.some((f) => f.field === 'files' && f.data.length > 0)) return missingField(res, 'files');
        const voiceId = randomBytes(10).toString('base64url');
        voices.add(voiceId);
        return json(res, 200, { voice_id: voiceId, requires_verification: false });
      }
      case 'delete_voice': {
        const voiceId = decodeURIComponent(r.path.split('/')[3] ?? '');
        if (!voices.delete(voiceId)) return error(res, 404, ['voice_not_found', `A voice with the voice_id ${voiceId} was not found.`]);
        deletedVoices.push(voiceId);
        return json(res, 200, { status: 'ok' });
      }
      case 'stt': {
        if (!r.fields?.model_id) return missingField(res, 'model_id');
        if (!r.files?.some((f) => f.field === 'file')) return missingField(res, 'file');
        if (behaviour?.kind === 'malformed') return void res.writeHead(200, { 'Content-Type': 'text/html' }).end('<html>Bad gateway</html>');
        if (behaviour?.kind === 'missing') return json(res, 200, { language_code: 'eng', language_probability: 0.5 });
        if (behaviour?.kind === 'huge') return hugeTranscript(res, behaviour.bytes);
        const words = TRANSCRIPT.split(' ').map((text, i) => ({ text, start: i * 0.4, end: i * 0.4 + 0.3, type: 'word', logprob: 0 }));
        return json(res, 200, { language_code: r.fields.language_code ?? 'eng', language_probability: 0.98, text: TRANSCRIPT, words });
      }
    }
  }

  async function audio(res: ServerResponse, behaviour: Behaviour | undefined, make: () => Promise<Buffer>, headers: Record<string, string> = {}) {
    const head = { 'Content-Type': 'audio/mpeg', 'request-id': randomBytes(8).toString('hex'), ...headers };
    if (behaviour?.kind === 'malformed') return json(res, 200, { detail: { status: 'ok', message: 'Your audio is being prepared.' } });
    if (behaviour?.kind === 'missing') return void res.writeHead(200, head).end();
    if (behaviour?.kind === 'huge') {
      const huge = await hugeMp3(behaviour.bytes);
      hugeServed = huge.served;
      res.writeHead(200, head);
      huge.stream.pipe(res);
      return;
    }
    const data = await make();
    if (behaviour?.kind === 'cut') {
      res.writeHead(200, head);
      res.write(data.subarray(0, Math.ceil(data.length / 2)));
      await sleep(20);
      return void res.socket?.destroy();
    }
    res.writeHead(200, { ...head, 'Content-Length': data.length }).end(data);
  }

  /** A transcript whose text never seems to end, without a Content-Length: read it to find out. */
  function hugeTranscript(res: ServerResponse, bytes: number) {
    let served = 0;
    hugeServed = () => served;
    const words = Buffer.from('word '.repeat((64 * 1024) / 5));
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.write('{"language_code":"eng","language_probability":0.98,"text":"');
    Readable.from(
      (function* () {
        for (; served <= bytes; served += words.length) yield words;
        yield '"}';
      })(),
    ).pipe(res);
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) json(res, 500, { detail: { status: 'internal_server_error', message: String(err) } });
      else res.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    baseUrl: `http://127.0.0.1:${port}`,
    apiKey,
    received,
    /** Voices that exist now: the premade ones and clones not yet deleted. */
    voices,
    deletedVoices,
    script,
    /** Bytes the latest huge output has sent so far. */
    hugeServed: () => hugeServed(),
    /** Forgets scripts and records between tests. */
    reset() {
      queue.length = 0;
      received.length = 0;
    },
    close(): Promise<void> {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

export type FakeElevenLabs = Awaited<ReturnType<typeof startFakeElevenLabs>>;

const TRANSCRIPT = 'The quick brown fox jumps over the lazy dog.';

function routeOf(method: string, path: string): FakeRoute | 'unknown' {
  if (method === 'POST' && /^\/v1\/text-to-speech\/[^/]+$/.test(path)) return 'tts';
  if (method === 'POST' && path === '/v1/voices/add') return 'clone';
  if (method === 'DELETE' && /^\/v1\/voices\/[^/]+$/.test(path)) return 'delete_voice';
  if (method === 'POST' && path === '/v1/speech-to-text') return 'stt';
  if (method === 'POST' && path === '/v1/music') return 'music';
  return 'unknown';
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** JSON, or multipart read by the platform's own form-data parser. */
async function parseBody(req: IncomingMessage, url: URL, body: Buffer): Promise<Pick<ReceivedRequest, 'json' | 'fields' | 'files'>> {
  const type = req.headers['content-type'] ?? '';
  if (body.length === 0) return {};
  if (type.startsWith('application/json')) return { json: JSON.parse(body.toString('utf8')) };
  if (!type.startsWith('multipart/form-data')) return {};
  const form = await new Request(url, { method: 'POST', headers: { 'content-type': type }, body }).formData();
  const fields: Record<string, string> = {};
  const files: ReceivedFile[] = [];
  for (const [field, value] of form) {
    if (typeof value === 'string') fields[field] = value;
    else files.push({ field, filename: value.name, type: value.type, data: Buffer.from(await value.arrayBuffer()) });
  }
  return { fields, files };
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
}

function error(res: ServerResponse, status: number, [code, message]: [string, string]): void {
  json(res, status, { detail: { status: code, message } });
}

/** FastAPI's answer to a missing field, as ElevenLabs gives it. */
function missingField(res: ServerResponse, field: string): void {
  json(res, 422, { detail: [{ loc: ['body', field], msg: 'field required', type: 'value_error.missing' }] });
}

if (require.main === module) {
  startFakeElevenLabs({
    ...(process.env.ELEVENLABS_FAKE_API_KEY && { apiKey: process.env.ELEVENLABS_FAKE_API_KEY }),
    port: Number(process.env.ELEVENLABS_FAKE_PORT ?? 0),
    latencyMs: Number(process.env.ELEVENLABS_FAKE_LATENCY_MS ?? 0),
  }).then(
    (fake) => process.stdout.write(`${JSON.stringify({ baseUrl: fake.baseUrl, apiKey: fake.apiKey })}\n`),
    (err: unknown) => {
      process.stderr.write(`${String(err)}\n`);
      process.exit(1);
    },
  );
}
