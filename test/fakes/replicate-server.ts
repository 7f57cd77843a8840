import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createPredictionStore, type FakePrediction, type PredictionScript } from './replicate-predictions';

// A local Replicate that speaks the predictions API closely enough for the official `replicate`
// SDK, pointed at its base URL, to work unmodified: `POST /v1/models/{owner}/{name}/predictions`
// (official models), `POST /v1/predictions` with a `version` (community models), `GET
// /v1/predictions/{id}`, `POST /v1/predictions/{id}/cancel`; bearer-token auth; `Prefer: wait`
// (hold the request until the prediction ends, up to N seconds); problem-document errors
// (`{title, detail, status}`); webhooks on completion; and the output files themselves. Tests
// script what the next requests and predictions do, and read what it received.
//
// Run on its own for a benchmark: `npx tsx test/fakes/replicate-server.ts` prints
// `{"baseUrl","apiKey"}` on stdout (FAKE_REPLICATE_PORT, FAKE_REPLICATE_LATENCY_MS,
// FAKE_REPLICATE_API_KEY set it up).

export interface ReceivedRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  prefer: string | undefined;
  body: unknown;
}

/** What the next API request (of any kind) answers instead of its normal answer. */
type ResponseScript = { fail: { status: number; retryAfter?: string; title?: string; detail?: string } } | { hang: true } | { malformedBody: true };

export interface FakeReplicateOptions {
  apiKey?: string;
  /** How long a prediction runs before it ends, unless scripted otherwise. */
  latencyMs?: number;
  port?: number;
}

const VERSION_ID = /^[0-9a-f]{64}$/;
/** Community models: Replicate runs them only by version, so their name path is not found. */
const COMMUNITY_MODELS = new Set(['nightmareai/real-esrgan', 'sczhou/codeformer', 'tencentarc/gfpgan']);
const MAX_WAIT_S = 60;

export async function startFakeReplicate(options: FakeReplicateOptions = {}) {
  const apiKey = options.apiKey ?? `r8_fake_${randomBytes(12).toString('hex')}`;
  let latencyMs = options.latencyMs ?? 30;
  const responses: ResponseScript[] = [];
  const nextPredictions: PredictionScript[] = [];
  const received = { requests: [] as ReceivedRequest[], creates: [] as ReceivedRequest[], cancels: [] as string[], downloads: [] as string[] };
  const hosted = new Map<string, { data: Buffer; contentType: string }>();
  let origin = '';
  const store = createPredictionStore({ origin: () => origin, latencyMs: () => latencyMs });

  const server = createServer((req, res) => {
    handle(req, res).catch((err: Error) => send(res, 500, { title: 'Internal server error', detail: err.message, status: 500 }));
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://fake').pathname;
    if (req.method === 'GET' && (path.startsWith('/files/') || path.startsWith('/inputs/'))) return serveFile(path, res);
    const raw = await readBody(req);
    const request: ReceivedRequest = { method: req.method ?? 'GET', path, authorization: req.headers.authorization, prefer: header(req, 'prefer'), body: parseJson(raw) };
    received.requests.push(request);

    if (req.headers.authorization !== `Bearer ${apiKey}` && req.headers.authorization !== `Token ${apiKey}`) {
      return problem(res, 401, 'Unauthenticated', 'You did not pass a valid authentication token');
    }
    const scripted = responses.shift();
    if (scripted && 'hang' in scripted) return; // Never answered: the socket stays open until close().
    if (scripted && 'malformedBody' in scripted) return sendRaw(res, req.method === 'POST' ? 201 : 200, 'application/json', '{"id": "unterminated');
    if (scripted && 'fail' in scripted) {
      const { status, retryAfter, title, detail } = scripted.fail;
      return problem(res, status, title ?? defaultTitle(status), detail ?? defaultTitle(status), retryAfter);
    }

    const official = /^\/v1\/models\/([^/]+)\/([^/]+)\/predictions$/.exec(path);
    const single = /^\/v1\/predictions\/([^/]+)(\/cancel)?$/.exec(path);
    if (official && COMMUNITY_MODELS.has(`${official[1]}/${official[2]}`)) return problem(res, 404, 'Not found', 'The requested resource could not be found.');
    if (req.method === 'POST' && (official || path === '/v1/predictions')) {
      received.creates.push(request);
      return createPrediction(request, official ? `${official[1]}/${official[2]}` : undefined, res);
    }
    if (single) {
      const prediction = store.predictions.get(single[1]!);
      if (!prediction) return problem(res, 404, 'Not found', 'The requested resource could not be found.');
      if (single[2] && req.method === 'POST') {
        received.cancels.push(prediction.id);
        store.cancel(prediction);
        return send(res, 200, prediction);
      }
      if (!single[2] && req.method === 'GET') return send(res, 200, prediction);
    }
    return problem(res, 404, 'Not found', 'The requested resource could not be found.');
  }

  async function createPrediction(request: ReceivedRequest, model: string | undefined, res: ServerResponse): Promise<void> {
    const body = (request.body ?? {}) as Record<string, unknown>;
    if (!model && (typeof body.version !== 'string' || !VERSION_ID.test(body.version))) {
      return problem(res, 422, 'Invalid version or not permitted', "The specified version does not exist (or perhaps you don't have permission to use it?)");
    }
    if (!body.input || typeof body.input !== 'object' || Array.isArray(body.input)) {
      return problem(res, 422, 'Input validation failed', '- input: Invalid type. Expected: object');
    }
    const input = body.input as Record<string, unknown>;
    if (typeof input.prompt !== 'string' && typeof input.image !== 'string' && typeof input.img !== 'string') {
      return problem(res, 422, 'Input validation failed', '- (root): prompt is required');
    }
    const prediction = store.create(
      {
        ...(model && { model }),
        ...(typeof body.version === 'string' && { version: body.version }),
        input,
        ...(typeof body.webhook === 'string' && { webhook: body.webhook }),
        ...(Array.isArray(body.webhook_events_filter) && { webhook_events_filter: body.webhook_events_filter as string[] }),
      },
      nextPredictions.shift() ?? {},
    );
    const wait = /^wait(?:=(\d+))?$/.exec(request.prefer ?? '');
    if (wait) await store.waitForEnd(prediction, Math.min(MAX_WAIT_S, Number(wait[1] ?? MAX_WAIT_S)) * 1000);
    send(res, 201, prediction);
  }

  function serveFile(path: string, res: ServerResponse): void {
    received.downloads.push(path);
    const input = hosted.get(path);
    if (input) return sendRaw(res, 200, input.contentType, input.data);
    const file = store.file(path);
    if (!file) return sendRaw(res, 404, 'text/plain', 'Not found');
    if ('data' in file) return sendRaw(res, 200, file.mime, file.data);
    streamHuge(res, file.hugeBytes);
  }

  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    baseUrl: `${origin}/v1`,
    apiKey,
    received: { ...received, webhooks: store.webhooks },
    /** A prediction as the fake holds it (its status, input, output). */
    prediction: (id: string): FakePrediction | undefined => store.predictions.get(id),
    /** Serves a file at a URL, as the gateway's signed input URLs do. */
    host(data: Buffer, contentType: string): string {
      const path = `/inputs/${randomBytes(8).toString('hex')}`;
      hosted.set(path, { data, contentType });
      return `${origin}${path}`;
    },
    script: {
      /** The next API request answers `status` with a problem document (and Retry-After). */
      fail(status: number, opts: { retryAfter?: string; title?: string; detail?: string } = {}) {
        responses.push({ fail: { status, ...opts } });
      },
      /** The next API request is never answered. */
      hang() {
        responses.push({ hang: true });
      },
      /** The next API request answers a body that is not JSON. */
      malformedBody() {
        responses.push({ malformedBody: true });
      },
      /** The next prediction ends `failed` with this error (e.g. an NSFW refusal). */
      jobFails(error: string) {
        nextPredictions.push({ fails: error });
      },
      malformedOutput() {
        nextPredictions.push({ output: 'malformed' });
      },
      missingOutput() {
        nextPredictions.push({ output: 'missing' });
      },
      /** The next prediction answers its file inline, as a data: URL, padded with zeros to `bytes`. */
      inlineOutput(bytes?: number) {
        nextPredictions.push({ output: 'inline', ...(bytes !== undefined && { hugeBytes: bytes }) });
      },
      /** The next prediction's output is one file of `bytes` bytes (a PNG signature, then zeros). */
      hugeOutput(bytes: number) {
        nextPredictions.push({ hugeBytes: bytes });
      },
      /** The next prediction takes `ms`; `latency` changes it for all that follow. */
      delayNext(ms: number) {
        nextPredictions.push({ latencyMs: ms });
      },
      latency(ms: number) {
        latencyMs = ms;
      },
    },
    async close(): Promise<void> {
      store.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type FakeReplicate = Awaited<ReturnType<typeof startFakeReplicate>>;

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const CHUNK = Buffer.alloc(64 * 1024);

/** `bytes` bytes in 64 KiB writes, honouring backpressure: never held in memory at once. */
function streamHuge(res: ServerResponse, bytes: number): void {
  res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(bytes) });
  let left = bytes;
  const write = () => {
    while (left > 0) {
      const piece = left === bytes ? Buffer.concat([PNG_SIGNATURE, CHUNK]).subarray(0, Math.min(left, CHUNK.length)) : CHUNK.subarray(0, Math.min(left, CHUNK.length));
      left -= piece.length;
      if (!res.write(piece)) return void res.once('drain', write);
    }
    res.end();
  };
  res.on('error', () => undefined);
  write();
}

function problem(res: ServerResponse, status: number, title: string, detail: string, retryAfter?: string): void {
  res.writeHead(status, { 'content-type': 'application/problem+json', ...(retryAfter !== undefined && { 'retry-after': retryAfter }) });
  res.end(JSON.stringify({ title, detail, status }));
}

function send(res: ServerResponse, status: number, body: unknown): void {
  sendRaw(res, status, 'application/json', JSON.stringify(body));
}

function sendRaw(res: ServerResponse, status: number, contentType: string, body: string | Buffer): void {
  res.writeHead(status, { 'content-type': contentType });
  res.end(body);
}

function defaultTitle(status: number): string {
  if (status === 401) return 'Unauthenticated';
  if (status === 429) return 'Request was throttled. Expected available in 1 second.';
  if (status === 422) return 'Input validation failed';
  return status >= 500 ? 'Internal server error' : 'Bad request';
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function parseJson(raw: string): unknown {
  if (!raw) return undefined;
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

if (require.main === module) {
  void startFakeReplicate({
    ...(process.env.FAKE_REPLICATE_API_KEY && { apiKey: process.env.FAKE_REPLICATE_API_KEY }),
    latencyMs: Number(process.env.FAKE_REPLICATE_LATENCY_MS ?? 200),
    port: Number(process.env.FAKE_REPLICATE_PORT ?? 0),
  }).then((fake) => {
    process.stdout.write(`${JSON.stringify({ baseUrl: fake.baseUrl, apiKey: fake.apiKey })}\n`);
    const stop = () => void fake.close().then(() => process.exit(0));
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}
