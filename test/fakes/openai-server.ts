import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import sharp from 'sharp';
import { renderAudio, renderImage, transcribe } from '../../activities/providers/simulator-media';
import { speechDurationMs } from '../../domain/media-durations';
import {
  listen,
  receive,
  Script,
  sendJson,
  sendMalformedJson,
  sleep,
  stallJson,
  streamLazily,
  type Behaviour,
  type ReceivedFile,
  type ReceivedRequest,
} from './openai-anthropic-fake-kit';

// A local stand-in for OpenAI's REST API (and so for any OpenAI-compatible server), close enough
// that the official `openai` SDK works against it unmodified: chat completions, image generations
// and edits, speech and transcriptions, under /v1, with Bearer auth and OpenAI's error body
// `{error: {message, type, code, param}}`. Its media are real (PNG, MP3) and made at runtime.
//
// Run on its own (`tsx test/fakes/openai-server.ts`) it prints `{"baseUrl","apiKey"}` on one line
// and answers at once, for benchmarks through POST /v1/chat.

export interface FakeOpenAI {
  /** Ends in /v1, as OpenAI's base URL does. */
  baseUrl: string;
  /** The key it accepts; empty means it takes any request, like a key-less Ollama. */
  apiKey: string;
  received: ReceivedRequest[];
  script: Script;
  /** How many bytes of the latest huge output have been written to the socket so far. */
  streamedBytes(): number;
  close(): Promise<void>;
}

/** Reasoning models: `max_completion_tokens` only, and only the default temperature. */
const REASONING_MODEL = /^(o\d|gpt-5)(?!.*-chat)/;
const IMAGE_SIZES = ['1024x1024', '1536x1024', '1024x1536', 'auto'];
const VOICES = ['alloy', 'ash', 'ballad', 'coral', 'echo', 'fable', 'nova', 'onyx', 'sage', 'shimmer', 'verse'];
const AUDIO_EXTENSIONS = ['flac', 'm4a', 'mp3', 'mp4', 'mpeg', 'mpga', 'oga', 'ogg', 'wav', 'webm'];

const DEFAULT_ERRORS: Record<number, { message: string; type: string; code: string | null }> = {
  400: { message: 'Invalid request.', type: 'invalid_request_error', code: null },
  401: { message: 'Incorrect API key provided.', type: 'invalid_request_error', code: 'invalid_api_key' },
  403: { message: 'You are not allowed to use this model.', type: 'invalid_request_error', code: 'model_not_found' },
  429: { message: 'Rate limit reached for requests. Please try again later.', type: 'requests', code: 'rate_limit_exceeded' },
  500: { message: 'The server had an error while processing your request.', type: 'server_error', code: null },
  503: { message: 'The engine is currently overloaded, please try again later.', type: 'server_error', code: null },
};

class Rejection extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly fields: { type?: string; code?: string | null; param?: string | null } = {},
  ) {
    super(message);
  }
}

export async function startFakeOpenAI(opts: { apiKey?: string; record?: boolean } = {}): Promise<FakeOpenAI> {
  const apiKey = opts.apiKey ?? `sk-fake-${randomBytes(12).toString('hex')}`;
  const received: ReceivedRequest[] = [];
  const script = new Script();
  let streamed = 0;
  let sequence = 0;

  const server = await listen(async (req, res) => {
    const request = await receive(req);
    if (opts.record !== false) received.push(request);
    const behaviour = script.next();
    try {
      if (behaviour?.kind === 'hang') return;
      if (behaviour?.kind === 'delay') await sleep(behaviour.ms);
      if (behaviour?.kind === 'fail') {
        const preset = DEFAULT_ERRORS[behaviour.status] ?? DEFAULT_ERRORS[behaviour.status >= 500 ? 500 : 400]!;
        throw new Rejection(behaviour.status, behaviour.message ?? preset.message, { type: behaviour.type ?? preset.type, code: behaviour.code ?? preset.code });
      }
      if (apiKey && request.apiKey !== apiKey) throw new Rejection(401, DEFAULT_ERRORS[401]!.message, { code: 'invalid_api_key' });
      if (behaviour?.kind === 'malformed') return sendMalformedJson(res);
      if (behaviour?.kind === 'stallBody') return stallJson(res);
      const route = `${request.method} ${request.path}`;
      const seq = ++sequence;
      if (route === 'POST /v1/chat/completions') return sendJson(res, 200, chatCompletion(request.body ?? {}, behaviour, seq));
      if (route === 'POST /v1/images/generations' || route === 'POST /v1/images/edits') {
        return sendJson(res, 200, await images(request.body ?? {}, behaviour, seq, route.endsWith('edits')));
      }
      if (route === 'POST /v1/audio/speech') return await speech(res, request.body ?? {}, behaviour, (bytes) => (streamed = bytes));
      if (route === 'POST /v1/audio/transcriptions') return sendJson(res, 200, await transcription(request.body ?? {}, behaviour, seq));
      throw new Rejection(404, `Invalid URL (${route})`, { code: null });
    } catch (err) {
      if (!(err instanceof Rejection)) throw err;
      const retryAfter = behaviour?.kind === 'fail' && behaviour.retryAfter ? { 'retry-after': behaviour.retryAfter } : undefined;
      const { type = 'invalid_request_error', code = null, param = null } = err.fields;
      sendJson(res, err.status, { error: { message: err.message, type, param, code } }, retryAfter);
    }
  });

  return { baseUrl: `${server.origin}/v1`, apiKey, received, script, streamedBytes: () => streamed, close: server.close };
}

function chatCompletion(body: Record<string, unknown>, behaviour: Behaviour | undefined, seq: number) {
  const model = requireString(body, 'model');
  const messages = body.messages;
  if (!Array.isArray(messages) || messages.length === 0) throw new Rejection(400, "'messages' must be a non-empty array.", { param: 'messages' });
  if (REASONING_MODEL.test(model) && body.max_tokens !== undefined) {
    throw new Rejection(400, "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.", {
      param: 'max_tokens',
      code: 'unsupported_parameter',
    });
  }
  if (REASONING_MODEL.test(model) && body.temperature !== undefined && body.temperature !== 1) {
    throw new Rejection(400, `Unsupported value: 'temperature' does not support ${String(body.temperature)} with this model. Only the default (1) value is supported.`, {
      param: 'temperature',
      code: 'unsupported_value',
    });
  }
  const texts = messages.map((m: { content?: unknown }) => (typeof m.content === 'string' ? m.content : ''));
  const limit = Number(body.max_completion_tokens ?? body.max_tokens ?? Infinity);
  const words = (behaviour?.kind === 'reply' ? behaviour.text : `Fake answer to: ${texts[texts.length - 1]!.slice(0, 200)}`).split(/\s+/);
  const content = words.slice(0, limit).join(' ');
  const completionTokens = behaviour?.kind === 'reply' && behaviour.outputTokens !== undefined ? behaviour.outputTokens : Math.min(words.length, limit);
  const promptTokens = behaviour?.kind === 'reply' && behaviour.inputTokens !== undefined ? behaviour.inputTokens : Math.ceil(texts.join('').length / 4);
  const refused = behaviour?.kind === 'refuse';
  const answer = {
    id: `chatcmpl-fake${seq}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    ...(behaviour?.kind !== 'missing' && {
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: refused ? null : behaviour?.kind === 'contentFilter' ? '' : content,
            refusal: refused ? "I'm sorry, I can't help with that." : null,
            annotations: [],
          },
          logprobs: null,
          finish_reason: behaviour?.kind === 'contentFilter' ? 'content_filter' : words.length > limit ? 'length' : 'stop',
        },
      ],
    }),
    service_tier: 'default',
    system_fingerprint: null,
  };
  if (behaviour?.kind === 'noUsage') return answer;
  return { ...answer, usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens } };
}

async function images(body: Record<string, unknown>, behaviour: Behaviour | undefined, seq: number, edit: boolean) {
  requireString(body, 'prompt');
  const size = String(body.size ?? 'auto');
  if (!IMAGE_SIZES.includes(size))
    throw new Rejection(400, `Invalid value: '${size}'. Supported values are: ${IMAGE_SIZES.map((s) => `'${s}'`).join(', ')}.`, { param: 'size', code: 'invalid_value' });
  const n = Number(body.n ?? 1);
  if (!(Number.isInteger(n) && n >= 1 && n <= 10)) throw new Rejection(400, `Invalid 'n': ${String(body.n)}. Expected 1 to 10.`, { param: 'n' });
  if (behaviour?.kind === 'refuse') {
    throw new Rejection(400, 'Your request was rejected by the safety system. Your request may contain content that is not allowed by our safety system.', {
      type: 'image_generation_user_error',
      code: 'moderation_blocked',
    });
  }
  const format = String(body.output_format ?? 'png');
  const [width, height] = (size === 'auto' ? '1024x1024' : size).split('x').map(Number) as [number, number];
  const input = edit ? await readImage(body.image) : undefined;
  const data: { b64_json: string }[] = [];
  for (let i = 0; i < n && behaviour?.kind !== 'missing'; i++) {
    const png = input
      ? await sharp(input).resize(width, height, { fit: 'cover' }).png().toBuffer()
      : (await renderImage({ width, height, seed: `openai-fake-${seq}-${i}`, format: 'png' })).data;
    const image = behaviour?.kind === 'huge' ? Buffer.concat([png, Buffer.alloc(Math.max(0, behaviour.bytes - png.length))]) : await encode(png, format);
    data.push({ b64_json: image.toString('base64') });
  }
  return {
    created: Math.floor(Date.now() / 1000),
    background: 'opaque',
    data,
    output_format: format,
    quality: body.quality ?? 'auto',
    size,
    usage: { input_tokens: 20, output_tokens: 1056 * n, total_tokens: 20 + 1056 * n },
  };
}

async function readImage(part: unknown): Promise<Buffer> {
  const file = part as ReceivedFile | undefined;
  if (!file?.data) throw new Rejection(400, "'image' is a required property.", { param: 'image' });
  try {
    await sharp(file.data).metadata();
    return file.data;
  } catch {
    throw new Rejection(400, 'Invalid image file or mode for image 1, please check your image file.', { param: 'image', code: 'invalid_image_file' });
  }
}

async function encode(png: Buffer, format: string): Promise<Buffer> {
  if (format === 'png') return png;
  if (format === 'webp') return sharp(png).webp().toBuffer();
  if (format === 'jpeg') return sharp(png).jpeg().toBuffer();
  throw new Rejection(400, `Invalid value: '${format}'. Supported values are: 'png', 'jpeg' and 'webp'.`, { param: 'output_format' });
}

async function speech(res: ServerResponse, body: Record<string, unknown>, behaviour: Behaviour | undefined, sent: (bytes: number) => void) {
  requireString(body, 'model');
  const input = requireString(body, 'input');
  const voice = String(body.voice ?? '');
  if (!VOICES.includes(voice))
    throw new Rejection(400, `Invalid value: '${voice}'. Supported values are: ${VOICES.map((v) => `'${v}'`).join(', ')}.`, { param: 'voice', code: 'invalid_value' });
  const format = String(body.response_format ?? 'mp3');
  if (format !== 'mp3' && format !== 'wav') throw new Rejection(400, `The fake speaks mp3 or wav, not ${format}.`, { param: 'response_format' });
  if (behaviour?.kind === 'missing') {
    res.writeHead(200, { 'content-type': 'audio/mpeg', 'content-length': '0' });
    return void res.end();
  }
  const audio = await renderAudio({ durationMs: Math.min(speechDurationMs(input), 3_000), seed: input, format, kind: 'speech' });
  if (behaviour?.kind === 'huge') return streamLazily(res, audio.mime, audio.data, behaviour.bytes, sent);
  res.writeHead(200, { 'content-type': audio.mime, 'content-length': String(audio.data.length) });
  res.end(audio.data);
}

async function transcription(body: Record<string, unknown>, behaviour: Behaviour | undefined, seq: number) {
  requireString(body, 'model');
  const file = body.file as ReceivedFile | undefined;
  if (!file?.data) throw new Rejection(400, "'file' is a required property.", { param: 'file' });
  const invalid = new Rejection(400, `Invalid file format. Supported formats: ${JSON.stringify(AUDIO_EXTENSIONS)}`, { param: 'file' });
  if (!AUDIO_EXTENSIONS.includes(file.filename.split('.').pop() ?? '')) throw invalid;
  const transcript = await transcribe({ audio: file.data, seed: `openai-fake-${seq}` }).catch(() => {
    throw invalid;
  });
  if (behaviour?.kind === 'missing') return { usage: { type: 'duration', seconds: 1 } };
  return { text: transcript.text, usage: { type: 'duration', seconds: Math.ceil(Number(transcript.durationS)) } };
}

function requireString(body: Record<string, unknown>, name: string): string {
  const value = body[name];
  if (typeof value !== 'string' || !value) throw new Rejection(400, `'${name}' is a required property.`, { param: name });
  return value;
}

if (require.main === module) {
  void startFakeOpenAI({ apiKey: process.env.FAKE_OPENAI_API_KEY, record: false }).then((fake) => {
    process.stdout.write(`${JSON.stringify({ baseUrl: fake.baseUrl, apiKey: fake.apiKey })}\n`);
    const stop = () => void fake.close().then(() => process.exit(0));
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}
