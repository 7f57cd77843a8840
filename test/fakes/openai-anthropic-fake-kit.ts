import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

// What the fake OpenAI and Anthropic servers share: a local HTTP server on a random port, a record
// of what each request carried, and a script of behaviours for the next requests.

/** A file part of a multipart body, as the fake saw it. */
export interface ReceivedFile {
  filename: string;
  type: string;
  data: Buffer;
}

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The key the request presented (Authorization: Bearer, or x-api-key), if any. */
  apiKey?: string;
  /** A JSON body parsed; a multipart body as its fields (files as ReceivedFile); else undefined. */
  body: Record<string, unknown> | undefined;
}

/** What the fake does with one request, instead of answering it normally. */
export type Behaviour =
  | { kind: 'fail'; status: number; retryAfter?: string; message?: string; type?: string; code?: string }
  | { kind: 'hang' }
  | { kind: 'stallBody' }
  | { kind: 'delay'; ms: number }
  | { kind: 'malformed' }
  | { kind: 'missing' }
  | { kind: 'huge'; bytes: number }
  | { kind: 'refuse' }
  | { kind: 'contentFilter' }
  | { kind: 'noUsage' }
  | { kind: 'reply'; text: string; inputTokens?: number; outputTokens?: number };

/** Behaviours for the next requests, one each, in order; a request with none is answered normally. */
export class Script {
  private readonly queue: Behaviour[] = [];

  /** The next request fails with this status and the provider's error body. */
  fail(status: number, opts: { retryAfter?: string; message?: string; type?: string; code?: string } = {}): this {
    return this.push({ kind: 'fail', status, ...opts });
  }
  /** The next request is read and never answered (until the server closes). */
  hang(): this {
    return this.push({ kind: 'hang' });
  }
  /** The next answer sends its 200 headers and the start of its JSON, then nothing more. */
  stallBody(): this {
    return this.push({ kind: 'stallBody' });
  }
  /** The next request is answered normally after `ms`. */
  delay(ms: number): this {
    return this.push({ kind: 'delay', ms });
  }
  /** The next answer is a 200 whose JSON is cut off. */
  malformedOutput(): this {
    return this.push({ kind: 'malformed' });
  }
  /** The next answer is a 200 without the output it should carry. */
  missingOutput(): this {
    return this.push({ kind: 'missing' });
  }
  /** The next answer's output file is `bytes` long, streamed lazily as the client reads. */
  hugeOutput(bytes: number): this {
    return this.push({ kind: 'huge', bytes });
  }
  /** The next answer is the provider's content-policy refusal. */
  refuse(): this {
    return this.push({ kind: 'refuse' });
  }
  /** The next chat answer is cut by a content filter (OpenAI's finish_reason content_filter). */
  contentFilter(): this {
    return this.push({ kind: 'contentFilter' });
  }
  /** The next chat answer reports no token usage (as many OpenAI-compatible servers do). */
  noUsage(): this {
    return this.push({ kind: 'noUsage' });
  }
  /** The next chat answer says exactly this, reporting these token counts. */
  reply(text: string, tokens: { inputTokens?: number; outputTokens?: number } = {}): this {
    return this.push({ kind: 'reply', text, ...tokens });
  }

  next(): Behaviour | undefined {
    return this.queue.shift();
  }

  private push(behaviour: Behaviour): this {
    this.queue.push(behaviour);
    return this;
  }
}

export type Handler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

/** Starts `handler` on 127.0.0.1 at a random port; `close` also ends requests left hanging. */
export async function listen(handler: Handler): Promise<{ origin: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    handler(req, res).catch((err: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `fake server error: ${String(err)}`, type: 'server_error' } }));
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Reads the body and records the request: JSON parsed, multipart split into fields and files. */
export async function receive(req: IncomingMessage): Promise<ReceivedRequest> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const raw = Buffer.concat(chunks);
  const type = req.headers['content-type'] ?? '';
  const bearer = /^Bearer (.*)$/i.exec(req.headers.authorization ?? '')?.[1];
  const apiKey = (req.headers['x-api-key'] as string | undefined) ?? bearer;
  return {
    method: req.method ?? 'GET',
    path: new URL(req.url ?? '/', 'http://fake').pathname,
    headers: req.headers,
    ...(apiKey !== undefined && { apiKey }),
    body: await parseBody(raw, type),
  };
}

async function parseBody(raw: Buffer, type: string): Promise<Record<string, unknown> | undefined> {
  if (raw.length === 0) return undefined;
  if (type.startsWith('application/json')) {
    try {
      return JSON.parse(raw.toString('utf8')) as Record<string, unknown>;
    } catch {
      return undefined;
    }
  }
  if (!type.startsWith('multipart/form-data')) return undefined;
  const form = await new Response(raw, { headers: { 'content-type': type } }).formData();
  const fields: Record<string, unknown> = {};
  for (const [name, value] of form.entries()) {
    fields[name] = typeof value === 'string' ? value : ({ filename: value.name, type: value.type, data: Buffer.from(await value.arrayBuffer()) } satisfies ReceivedFile);
  }
  return fields;
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

const CUT_OFF_JSON = '{"id": "cut-off", "choices": [{"message": ';

/** A 200 with a JSON content type whose body stops halfway. */
export function sendMalformedJson(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(CUT_OFF_JSON);
}

/** A 200 whose body starts and never ends (a proxy or server stuck mid-answer). */
export function stallJson(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.write(CUT_OFF_JSON);
}

/**
 * A body of `total` bytes that starts with `head`, written only as fast as the client reads
 * (backpressure), so a client that never reads gets only what the socket buffers hold. `sent`
 * reports progress.
 */
export function streamLazily(res: ServerResponse, mime: string, head: Buffer, total: number, sent: (bytes: number) => void): void {
  res.writeHead(200, { 'content-type': mime, 'content-length': String(total) });
  const chunk = Buffer.alloc(64 * 1024);
  let written = 0;
  const pump = () => {
    while (written < total && !res.destroyed) {
      const piece = written === 0 ? head.subarray(0, total) : chunk.subarray(0, Math.min(chunk.length, total - written));
      written += piece.length;
      sent(written);
      if (!res.write(piece)) {
        res.once('drain', pump);
        return;
      }
    }
    if (written >= total) res.end();
  };
  pump();
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
