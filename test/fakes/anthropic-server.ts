import { randomBytes } from 'node:crypto';
import { listen, receive, Script, sendJson, sendMalformedJson, sleep, stallJson, type Behaviour, type ReceivedRequest } from './openai-anthropic-fake-kit';

// A local stand-in for Anthropic's Messages API, close enough that the official
// `@anthropic-ai/sdk` works against it unmodified: `POST /v1/messages` with the key in `x-api-key`
// (or `Authorization: Bearer`, which the SDK's 1.x sends), a required `anthropic-version` header,
// and Anthropic's error body `{type: "error", error: {type, message}, request_id}`. Like the API
// version 2026-10-21, it refuses sampling parameters (temperature, top_p, top_k).
//
// Run on its own (`tsx test/fakes/anthropic-server.ts`) it prints `{"baseUrl","apiKey"}` on one line.

export interface FakeAnthropic {
  /** Without /v1: the SDK adds it, as it does to https://api.anthropic.com. */
  baseUrl: string;
  apiKey: string;
  received: ReceivedRequest[];
  script: Script;
  close(): Promise<void>;
}

const ERROR_TYPES: Record<number, { type: string; message: string }> = {
  400: { type: 'invalid_request_error', message: 'Invalid request.' },
  401: { type: 'authentication_error', message: 'invalid x-api-key' },
  403: { type: 'permission_error', message: 'Your API key does not have permission to use the specified resource.' },
  404: { type: 'not_found_error', message: 'Not found.' },
  413: { type: 'request_too_large', message: 'Request exceeds the maximum allowed number of bytes.' },
  429: { type: 'rate_limit_error', message: 'Number of request tokens has exceeded your per-minute rate limit.' },
  500: { type: 'api_error', message: 'Internal server error' },
  529: { type: 'overloaded_error', message: 'Overloaded' },
};
const SAMPLING_PARAMETERS = ['temperature', 'top_p', 'top_k'];

class Rejection extends Error {
  constructor(
    readonly status: number,
    message?: string,
    readonly type?: string,
  ) {
    super(message);
  }
}

export async function startFakeAnthropic(opts: { apiKey?: string; record?: boolean } = {}): Promise<FakeAnthropic> {
  const apiKey = opts.apiKey ?? `sk-ant-fake-${randomBytes(12).toString('hex')}`;
  const received: ReceivedRequest[] = [];
  const script = new Script();
  let sequence = 0;

  const server = await listen(async (req, res) => {
    const request = await receive(req);
    if (opts.record !== false) received.push(request);
    const behaviour = script.next();
    const requestId = `req_fake${++sequence}`;
    try {
      if (behaviour?.kind === 'hang') return;
      if (behaviour?.kind === 'delay') await sleep(behaviour.ms);
      if (behaviour?.kind === 'fail') throw new Rejection(behaviour.status, behaviour.message, behaviour.type);
      if (`${request.method} ${request.path}` !== 'POST /v1/messages') throw new Rejection(404, `Not found: ${request.method} ${request.path}`);
      if (!request.headers['anthropic-version']) throw new Rejection(400, 'anthropic-version: header is required');
      if (request.apiKey !== apiKey) throw new Rejection(401);
      if (behaviour?.kind === 'malformed') return sendMalformedJson(res);
      if (behaviour?.kind === 'stallBody') return stallJson(res);
      sendJson(res, 200, message(request, behaviour, sequence), { 'request-id': requestId });
    } catch (err) {
      if (!(err instanceof Rejection)) throw err;
      const preset = ERROR_TYPES[err.status] ?? ERROR_TYPES[err.status >= 500 ? 500 : 400]!;
      const headers: Record<string, string> = { 'request-id': requestId };
      if (behaviour?.kind === 'fail' && behaviour.retryAfter) headers['retry-after'] = behaviour.retryAfter;
      const error = { type: err.type ?? preset.type, message: err.message || preset.message };
      sendJson(res, err.status, { type: 'error', error, request_id: requestId }, headers);
    }
  });

  return { baseUrl: server.origin, apiKey, received, script, close: server.close };
}

function message(request: ReceivedRequest, behaviour: Behaviour | undefined, seq: number) {
  const body = request.body ?? {};
  if (typeof body.model !== 'string' || !body.model) throw new Rejection(400, 'model: Field required');
  const maxTokens = body.max_tokens;
  if (typeof maxTokens !== 'number' || !Number.isInteger(maxTokens) || maxTokens < 1) throw new Rejection(400, 'max_tokens: Field required');
  const messages = body.messages;
  if (!Array.isArray(messages) || messages.length === 0) throw new Rejection(400, 'messages: at least one message is required');
  if (request.headers['anthropic-version'] !== '2023-06-01') {
    const sampling = SAMPLING_PARAMETERS.find((name) => name in body);
    if (sampling) throw new Rejection(400, `${sampling}: Extra inputs are not permitted`);
  }
  for (const m of messages as { role?: unknown; content?: unknown }[]) {
    if (m.role !== 'user' && m.role !== 'assistant') throw new Rejection(400, `messages: Unexpected role "${String(m.role)}"`);
  }
  const texts = (messages as { content?: unknown }[]).map((m) => (typeof m.content === 'string' ? m.content : ''));
  const words = (behaviour?.kind === 'reply' ? behaviour.text : `Fake Claude answer to: ${texts[texts.length - 1]!.slice(0, 200)}`).split(/\s+/);
  const text = words.slice(0, maxTokens).join(' ');
  const outputTokens = behaviour?.kind === 'reply' && behaviour.outputTokens !== undefined ? behaviour.outputTokens : Math.min(words.length, maxTokens);
  const system = typeof body.system === 'string' ? body.system : '';
  const inputTokens = behaviour?.kind === 'reply' && behaviour.inputTokens !== undefined ? behaviour.inputTokens : Math.ceil((system + texts.join('')).length / 4);
  const refused = behaviour?.kind === 'refuse';
  return {
    id: `msg_fake${seq}`,
    type: 'message',
    role: 'assistant',
    model: body.model,
    ...(behaviour?.kind !== 'missing' && { content: refused ? [] : [{ type: 'text', text, citations: null }] }),
    stop_reason: refused ? 'refusal' : words.length > maxTokens ? 'max_tokens' : 'end_turn',
    stop_sequence: null,
    container: null,
    usage: { input_tokens: inputTokens, output_tokens: refused ? 0 : outputTokens, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, service_tier: 'standard' },
  };
}

if (require.main === module) {
  void startFakeAnthropic({ apiKey: process.env.FAKE_ANTHROPIC_API_KEY, record: false }).then((fake) => {
    process.stdout.write(`${JSON.stringify({ baseUrl: fake.baseUrl, apiKey: fake.apiKey })}\n`);
    const stop = () => void fake.close().then(() => process.exit(0));
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}
