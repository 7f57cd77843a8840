import { randomUUID } from 'node:crypto';
import http, { type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { media, mediaKindOf, modalityOf, resultFor, type FalFile, type ServedFile } from './fal-media';

// A local fal.ai queue (https://queue.fal.run) that the official @fal-ai/client SDK, pointed at it,
// drives unmodified: submit `POST /{owner}/{app}[/path]` (`?fal_webhook=` optional), status
// `GET /{owner}/{app}/requests/{id}/status`, result `GET /{owner}/{app}/requests/{id}`, cancel
// `PUT /{owner}/{app}/requests/{id}/cancel`, with the `Authorization: Key` header checked and
// fal's error bodies. A request is IN_QUEUE for the first half of its latency, IN_PROGRESS for the
// second, then COMPLETED; a failed one is COMPLETED with `error` and its result answers the error.
// Output files are small real media served from `/files/`. Tests script what comes next.
//
// Run alone (for benchmarks): `tsx test/fakes/fal-server.ts --latency-ms 200` prints
// {"baseUrl":..,"apiKey":..} on one line and serves until SIGINT or SIGTERM.

export type FalOperation = 'submit' | 'status' | 'result' | 'cancel';

export interface FalReceived {
  operation: FalOperation | 'file' | 'unknown';
  method: string;
  path: string;
  query: Record<string, string>;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body of a submit. */
  body?: unknown;
  /** Submit: the endpoint id; status, result, cancel: the app (`owner/app`) of the URL. */
  endpointId?: string;
  /** The request's id: the one a submit created, or the one in the URL. */
  requestId?: string;
}

export interface FalJobFailure {
  status?: number;
  detail?: string;
  errorType?: string;
  /** Whether the status answer carries the error too (fal's newer queue does); default true. */
  reportInStatus?: boolean;
}

type JobOutcome =
  | { kind: 'ok'; flagged?: boolean | boolean[] }
  | { kind: 'malformed' }
  | { kind: 'missing' }
  | { kind: 'huge'; bytes: number }
  | { kind: 'failed'; status: number; body: unknown; detail: string; errorType?: string; reportInStatus: boolean };

interface FakeJob {
  id: string;
  endpointId: string;
  app: string;
  input: Record<string, unknown>;
  submittedAt: number;
  latencyMs: number;
  outcome: JobOutcome;
  cancelled: boolean;
  webhookUrl?: string;
  result?: Promise<Record<string, unknown>>;
}

type RequestScript = { on?: FalOperation; kind: 'fail'; status: number; retryAfter?: string; body?: unknown } | { on?: FalOperation; kind: 'hang' };

export interface FakeFalScript {
  /** The next request (of `on`, else any queue request) answers `status` with fal's error body. */
  fail(status: number, opts?: { retryAfter?: string; on?: FalOperation; body?: unknown }): FakeFalScript;
  /** The next request (of `on`, else any) gets no answer at all. */
  hang(opts?: { on?: FalOperation }): FakeFalScript;
  /** The next submitted job takes `ms` to finish. */
  slowJob(ms: number): FakeFalScript;
  /** The next submit queues its job at once, as fal does, but its answer waits for `until`. */
  holdSubmitAnswer(until: Promise<void>): FakeFalScript;
  /** The next submitted job's result is not valid JSON. */
  malformedOutput(): FakeFalScript;
  /** The next submitted job's result has no output file. */
  missingOutput(): FakeFalScript;
  /** The next submitted job's output file is `bytes` long (a real file padded with zeros). */
  hugeOutput(bytes: number): FakeFalScript;
  /** The next submitted job fails: COMPLETED with `error`; its result answers `status` (500). */
  failJob(failure?: FalJobFailure): FakeFalScript;
  /** The next submitted job is refused by fal's content checker (422 content_policy_violation). */
  contentPolicy(opts?: { reportInStatus?: boolean }): FakeFalScript;
  /** The next submitted job's images come back flagged by the safety checker: all, or those `true` in `which`. */
  flagNsfw(which?: boolean[]): FakeFalScript;
}

export interface FakeFal {
  baseUrl: string;
  apiKey: string;
  received: FalReceived[];
  /** Request ids whose cancel arrived while they were still running. */
  cancelled: string[];
  /** Webhooks the fake POSTed, with the status they got (or the error). */
  webhooks: { url: string; body: unknown; answer: number | string }[];
  script: FakeFalScript;
  close(): Promise<void>;
}

const UNAUTHORIZED = { detail: 'No user found for Key ID and Secret' };
const CONTENT_POLICY_DETAIL = 'The content was flagged by a content checker.';

export interface FakeFalOptions {
  /** How long a request takes to complete unless scripted otherwise; default 0 (done at once). */
  latencyMs?: number;
  apiKey?: string;
  port?: number;
  /** Keep every request in `received` (default); a long benchmark run turns it off. */
  record?: boolean;
}

export async function startFakeFal(opts: FakeFalOptions = {}): Promise<FakeFal> {
  const apiKey = opts.apiKey ?? `fal-fake-${randomUUID()}`;
  const received: FalReceived[] = [];
  const cancelled: string[] = [];
  const webhooks: FakeFal['webhooks'] = [];
  const requestScripts: RequestScript[] = [];
  const jobScripts: Partial<Pick<FakeJob, 'latencyMs' | 'outcome'>>[] = [];
  const heldSubmitAnswers: Promise<void>[] = [];
  const jobs = new Map<string, FakeJob>();
  const files = new Map<string, ServedFile>();
  const timers = new Set<NodeJS.Timeout>();
  let baseUrl = '';

  const script: FakeFalScript = {
    fail: (status, o = {}) => (requestScripts.push({ kind: 'fail', status, ...o }), script),
    hang: (o = {}) => (requestScripts.push({ kind: 'hang', ...o }), script),
    slowJob: (ms) => (jobScripts.push({ latencyMs: ms }), script),
    holdSubmitAnswer: (until) => (heldSubmitAnswers.push(until), script),
    malformedOutput: () => (jobScripts.push({ outcome: { kind: 'malformed' } }), script),
    missingOutput: () => (jobScripts.push({ outcome: { kind: 'missing' } }), script),
    hugeOutput: (bytes) => (jobScripts.push({ outcome: { kind: 'huge', bytes } }), script),
    failJob: (f = {}) => {
      const detail = f.detail ?? 'Internal server error while running the model';
      const body = { detail, ...(f.errorType && { error_type: f.errorType }) };
      jobScripts.push({ outcome: { kind: 'failed', status: f.status ?? 500, body, detail, errorType: f.errorType, reportInStatus: f.reportInStatus ?? true } });
      return script;
    },
    contentPolicy: (o = {}) => {
      const item = { loc: ['body', 'prompt'], msg: CONTENT_POLICY_DETAIL, type: 'content_policy_violation', url: 'https://docs.fal.ai/errors#content_policy_violation' };
      const outcome: JobOutcome = {
        kind: 'failed',
        status: 422,
        body: { detail: [item] },
        detail: CONTENT_POLICY_DETAIL,
        errorType: 'content_policy_violation',
        reportInStatus: o.reportInStatus ?? true,
      };
      jobScripts.push({ outcome });
      return script;
    },
    flagNsfw: (which) => (jobScripts.push({ outcome: { kind: 'ok', flagged: which ?? true } }), script),
  };

  async function serveFile(kind: Parameters<typeof media>[0], rigged = false, paddedTo?: number): Promise<FalFile> {
    const file = await media(kind, rigged);
    const name = `${randomUUID()}.${file.extension}`;
    files.set(name, { ...file, ...(paddedTo !== undefined && { paddedTo }) });
    return { url: `${baseUrl}/files/${name}`, content_type: file.mime, file_name: name, file_size: paddedTo ?? file.data.length };
  }

  function stateOf(job: FakeJob): 'IN_QUEUE' | 'IN_PROGRESS' | 'COMPLETED' {
    if (job.cancelled) return 'COMPLETED';
    const elapsed = Date.now() - job.submittedAt;
    if (elapsed >= job.latencyMs) return 'COMPLETED';
    return elapsed < job.latencyMs / 2 ? 'IN_QUEUE' : 'IN_PROGRESS';
  }

  function failureOf(job: FakeJob): { status: number; body: unknown; detail: string; errorType?: string; reportInStatus: boolean } | undefined {
    if (job.cancelled) return { status: 400, body: { detail: 'Request was cancelled' }, detail: 'Request was cancelled', reportInStatus: true };
    return job.outcome.kind === 'failed' ? job.outcome : undefined;
  }

  function resultOf(job: FakeJob): Promise<Record<string, unknown>> {
    job.result ??= (async () => {
      const outcome = job.outcome;
      if (outcome.kind === 'missing') return { seed: 42, timings: { inference: 0.01 } };
      if (outcome.kind === 'huge') {
        const kind = mediaKindOf(modalityOf(job.endpointId));
        return resultFor(job.endpointId, job.input, (k, rigged) => serveFile(k, rigged, k === kind ? outcome.bytes : undefined));
      }
      return resultFor(job.endpointId, job.input, serveFile, { flagged: outcome.kind === 'ok' ? outcome.flagged : undefined });
    })();
    return job.result;
  }

  function urlsOf(job: FakeJob) {
    const base = `${baseUrl}/${job.app}/requests/${job.id}`;
    return { request_id: job.id, response_url: base, status_url: `${base}/status`, cancel_url: `${base}/cancel` };
  }

  function scheduleWebhook(job: FakeJob): void {
    const url = job.webhookUrl;
    if (!url) return;
    const timer = setTimeout(() => {
      timers.delete(timer);
      void sendWebhook(job, url);
    }, job.latencyMs);
    timers.add(timer);
  }

  /**
   * Builds and posts the job's webhook. Every failure, building the result included, is recorded in
   * `webhooks` where a test can see it: a timer callback has no caller to reject to.
   */
  async function sendWebhook(job: FakeJob, url: string): Promise<void> {
    let body: unknown;
    try {
      const failure = failureOf(job);
      body = failure
        ? { request_id: job.id, gateway_request_id: job.id, status: 'ERROR', error: failure.detail, payload: failure.body }
        : { request_id: job.id, gateway_request_id: job.id, status: 'OK', payload: job.outcome.kind === 'malformed' ? null : await resultOf(job) };
      const answer = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
      webhooks.push({ url, body, answer: answer.status });
    } catch (err) {
      webhooks.push({ url, body, answer: (err as Error).message });
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake');
    const segments = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
    const raw = await readBody(req);
    const record: FalReceived = {
      operation: 'unknown',
      method: req.method ?? '',
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: req.headers,
    };
    if (opts.record !== false) received.push(record);

    if (segments[0] === 'files' && req.method === 'GET') {
      record.operation = 'file';
      return sendFile(res, files.get(segments[1] ?? ''));
    }
    const isRequest = segments[2] === 'requests' && segments[3] !== undefined;
    const app = segments.slice(0, 2).join('/');
    if (isRequest) {
      record.requestId = segments[3];
      record.endpointId = app;
      if (req.method === 'GET' && segments.length === 5 && segments[4] === 'status') record.operation = 'status';
      else if (req.method === 'GET' && segments.length === 4) record.operation = 'result';
      else if (req.method === 'PUT' && segments.length === 5 && segments[4] === 'cancel') record.operation = 'cancel';
    } else if (req.method === 'POST' && segments.length >= 2) {
      record.operation = 'submit';
      record.endpointId = segments.join('/');
      record.body = parseJson(raw);
    }

    const scripted = requestScripts.findIndex((s) => (s.on ?? record.operation) === record.operation);
    if (record.operation !== 'unknown' && scripted >= 0) {
      const [step] = requestScripts.splice(scripted, 1);
      if (step!.kind === 'hang') return; // never answered; close() drops the connection
      return sendJson(res, step!.status, step!.body ?? errorBody(step!.status), step!.retryAfter ? { 'Retry-After': step!.retryAfter } : {});
    }
    if (req.headers.authorization !== `Key ${apiKey}`) return sendJson(res, 401, UNAUTHORIZED);

    switch (record.operation) {
      case 'submit': {
        if (typeof record.body !== 'object' || record.body === null || Array.isArray(record.body)) {
          return sendJson(res, 422, { detail: [{ loc: ['body'], msg: 'Input should be a valid dictionary', type: 'dict_type' }] });
        }
        const next = jobScripts.shift() ?? {};
        const job: FakeJob = {
          id: randomUUID(),
          endpointId: record.endpointId!,
          app,
          input: record.body as Record<string, unknown>,
          submittedAt: Date.now(),
          latencyMs: next.latencyMs ?? opts.latencyMs ?? 0,
          outcome: next.outcome ?? { kind: 'ok' },
          cancelled: false,
          ...(record.query.fal_webhook && { webhookUrl: record.query.fal_webhook }),
        };
        jobs.set(job.id, job);
        record.requestId = job.id;
        scheduleWebhook(job);
        const held = heldSubmitAnswers.shift();
        if (held) await held;
        return sendJson(res, 200, { status: 'IN_QUEUE', queue_position: 0, ...urlsOf(job) }, { 'x-fal-request-id': job.id });
      }
      case 'status':
      case 'result':
      case 'cancel': {
        const job = jobs.get(record.requestId!);
        if (!job || job.app !== app) {
          return sendJson(res, 404, record.operation === 'cancel' ? { status: 'NOT_FOUND' } : { detail: 'Request not found' });
        }
        return answerFor(record.operation, job, record.query, res);
      }
      default:
        return sendJson(res, 404, { detail: 'Not Found' });
    }
  }

  async function answerFor(operation: 'status' | 'result' | 'cancel', job: FakeJob, query: Record<string, string>, res: ServerResponse) {
    const state = stateOf(job);
    const failure = failureOf(job);
    if (operation === 'cancel') {
      if (state === 'COMPLETED') return sendJson(res, 400, { status: 'ALREADY_COMPLETED' });
      job.cancelled = true;
      cancelled.push(job.id);
      return sendJson(res, 202, { status: 'CANCELLATION_REQUESTED' });
    }
    if (operation === 'status') {
      const logs = query.logs === '1' ? { logs: [] } : {};
      const position = state === 'IN_QUEUE' ? { queue_position: 0 } : {};
      const error = state === 'COMPLETED' && failure?.reportInStatus ? { error: failure.detail, ...(failure.errorType && { error_type: failure.errorType }) } : {};
      const metrics = state === 'COMPLETED' ? { metrics: { inference_time: job.latencyMs / 1000 } } : {};
      return sendJson(res, state === 'COMPLETED' ? 200 : 202, { status: state, ...urlsOf(job), ...position, ...logs, ...metrics, ...error });
    }
    if (state !== 'COMPLETED') return sendJson(res, 400, { detail: 'Request is still in progress' });
    if (failure) return sendJson(res, failure.status, failure.body, failure.errorType ? { 'X-Fal-Error-Type': failure.errorType } : {});
    if (job.outcome.kind === 'malformed') return send(res, 200, '{"images": [{"url": ', { 'Content-Type': 'application/json' });
    return sendJson(res, 200, await resultOf(job), { 'x-fal-request-id': job.id });
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch((err) => {
      if (!res.headersSent) sendJson(res, 500, { detail: `fake fal failed: ${(err as Error).message}` });
    });
  });
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    baseUrl,
    apiKey,
    received,
    cancelled,
    webhooks,
    script,
    async close() {
      for (const timer of timers) clearTimeout(timer);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** fal's request error body for a status the fake was told to answer. */
function errorBody(status: number): unknown {
  if (status === 401 || status === 403) return UNAUTHORIZED;
  if (status === 429) return { detail: 'Too many requests: the rate limit of this key was reached' };
  if (status >= 500) return { detail: 'No runner could be allocated to handle the request', error_type: 'runner_scheduling_failure' };
  return { detail: `HTTP ${status}` };
}

function sendFile(res: ServerResponse, file: ServedFile | undefined): void {
  if (!file) return sendJson(res, 404, { detail: 'File not found' });
  const size = Math.max(file.paddedTo ?? 0, file.data.length);
  res.writeHead(200, { 'Content-Type': file.mime, 'Content-Length': String(size) });
  // A padded file is streamed in chunks, never held whole: it may be far larger than memory allows.
  let sent = 0;
  const chunk = Buffer.alloc(64 * 1024);
  const pump = (): void => {
    while (sent < size) {
      const piece = sent < file.data.length ? file.data.subarray(sent, sent + chunk.length) : chunk.subarray(0, Math.min(chunk.length, size - sent));
      sent += piece.length;
      if (!res.write(piece)) return void res.once('drain', pump);
    }
    res.end();
  };
  res.on('close', () => (sent = size));
  pump();
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  send(res, status, JSON.stringify(body), { 'Content-Type': 'application/json', ...headers });
}

function send(res: ServerResponse, status: number, text: string, headers: Record<string, string>): void {
  res.writeHead(status, { 'Content-Length': String(Buffer.byteLength(text)), ...headers });
  res.end(text);
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

if (require.main === module) {
  const arg = (name: string) => {
    const at = process.argv.indexOf(name);
    return at >= 0 ? process.argv[at + 1] : undefined;
  };
  const latencyMs = Number(arg('--latency-ms') ?? 200);
  const port = arg('--port') === undefined ? undefined : Number(arg('--port'));
  void startFakeFal({ latencyMs, record: false, ...(port !== undefined && { port }), ...(arg('--api-key') && { apiKey: arg('--api-key')! }) }).then((fake) => {
    process.stdout.write(`${JSON.stringify({ baseUrl: fake.baseUrl, apiKey: fake.apiKey })}\n`);
    const stop = () => void fake.close().then(() => process.exit(0));
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}
