import { ElevenLabsClient } from '@elevenlabs/elevenlabs-js';
import { describeError, type Logger } from '../../lib/logger';
import { cappedFetch, TEXT_ANSWER_CAP_BYTES } from './capped-answers';
import { failureFromElevenLabs, PROVIDER, type RequestSignals } from './elevenlabs-failure';
import { relay } from './elevenlabs-stream';
import { badOutput, PROVIDER_ERROR_CODES } from './http-failure';
import {
  ProviderError,
  type AdapterOptions,
  type ProviderAdapter,
  type ProviderContext,
  type ProviderCredentials,
  type ProviderFile,
  type ProviderJob,
  type ProviderResult,
} from './types';

// ElevenLabs through its official SDK: text to speech, speech in a cloned voice, transcription
// (Scribe) and music. Every one of them answers in the same HTTP exchange, so `submit` returns the
// result and there is never a job to poll or cancel. Audio is handed on as the response's body
// stream, unread: the gateway's ingest step streams it into storage under the size cap.

/** "George", one of ElevenLabs' default voices, for a request without `voice_id`. */
export const DEFAULT_VOICE_ID = 'JBFqnCBsd6RMkjVDRZzb';
/** MP3 at 44.1 kHz, 128 kbps: available on every plan, and what the catalog promises. */
const OUTPUT_FORMAT = 'mp3_44100_128';
const CACHED_CLIENTS = 64;

/** The per-request options every SDK method takes (timeout, retries, abort signal). */
type RequestOptions = NonNullable<Parameters<ElevenLabsClient['textToSpeech']['convert']>[2]>;

export interface ElevenLabsAdapterOptions extends AdapterOptions {
  /** Where a cloned voice that could not be deleted is reported, so an operator can remove it. */
  logger?: Logger;
}

export function createElevenLabsAdapter(opts: ElevenLabsAdapterOptions): ProviderAdapter {
  // One client per organization key, base URL (BYOK) and bound; clients hold no connection state.
  const clients = new Map<string, ElevenLabsClient>();
  /**
   * `capBytes` bounds every answer the client reads whole (a transcript's JSON). Audio is left
   * unbounded here: it is handed on as a stream, which the ingest step reads under the modality's cap.
   */
  function clientFor({ apiKey, baseUrl }: ProviderCredentials, capBytes?: number): ElevenLabsClient {
    const key = `${baseUrl}\n${apiKey}\n${capBytes ?? ''}`;
    let client = clients.get(key);
    if (!client) {
      // Retries and Retry-After are Temporal's job, fallback the workflow's: the SDK's retries stay off.
      client = new ElevenLabsClient({ apiKey, baseUrl, maxRetries: 0, ...(capBytes !== undefined && { fetch: cappedFetch(capBytes) }) });
      clients.set(key, client);
      if (clients.size > CACHED_CLIENTS) clients.delete(clients.keys().next().value!);
    }
    return client;
  }

  /**
   * One exchange with ElevenLabs, until its answer has started: under the activity's signal and a
   * deadline of the request timeout, and what it throws classified. `release`
   * ends the connection of an answer whose body is handed on and then abandoned.
   */
  async function exchange<T>(ctx: ProviderContext, work: (options: RequestOptions, signals: RequestSignals, release: () => void) => Promise<T>): Promise<T> {
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(new DOMException(`No answer within ${opts.requestTimeoutMs} ms.`, 'TimeoutError')), opts.requestTimeoutMs);
    const released = new AbortController();
    const signals = { cancelled: ctx.signal, deadline: deadline.signal };
    // The SDK's own timer runs a little longer than ours, so an overrun is always our deadline (its
    // own timeout surfaces as an unnamed error).
    const options: RequestOptions = {
      maxRetries: 0,
      timeoutInSeconds: opts.requestTimeoutMs / 1000 + 1,
      abortSignal: AbortSignal.any([ctx.signal, deadline.signal, released.signal]),
    };
    try {
      return await work(options, signals, () => released.abort());
    } catch (err) {
      throw failureFromElevenLabs(err, signals);
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * An audio answer as a stream file. The request timeout runs until its first chunk (an empty
   * answer fails here as `provider_bad_output`); the rest is read by the ingest step, under its own
   * timeout and the activity's signal. `after` runs once the body is read or abandoned, or at once
   * if the request fails.
   */
  async function audio(
    ctx: ProviderContext,
    call: (options: RequestOptions) => { withRawResponse(): Promise<{ data: ReadableStream<Uint8Array>; rawResponse: { headers: Headers } }> },
    after: () => Promise<void> = async () => undefined,
  ): Promise<ProviderFile> {
    try {
      return await exchange(ctx, async (options, signals, release) => {
        const { data, rawResponse } = await call(options).withRawResponse();
        const chunks = data[Symbol.asyncIterator]();
        const first = await chunks.next();
        if (first.done) throw badOutput(PROVIDER, 'an empty audio answer');
        const mime = rawResponse.headers.get('content-type')?.split(';')[0]?.trim();
        return { kind: 'stream', body: relay(first.value, chunks, { signals, release, after }), ...(mime && { mime }) };
      });
    } catch (err) {
      await after();
      throw err;
    }
  }

  async function speak(client: ElevenLabsClient, job: ProviderJob, voiceId: string, ctx: ProviderContext, after?: () => Promise<void>) {
    const language = languageOf(job);
    const seed = job.params.seed;
    const request = {
      text: typeof job.params.text === 'string' ? job.params.text : job.prompt,
      modelId: job.route.model,
      outputFormat: OUTPUT_FORMAT,
      ...(language && { languageCode: language }),
      ...(typeof seed === 'number' && { seed }),
    } as const;
    return audio(ctx, (options) => client.textToSpeech.convert(voiceId, request, options), after);
  }

  /** Instant voice cloning from the `audio` sample; the voice is deleted once its speech is read. */
  async function speakInClonedVoice(client: ElevenLabsClient, job: ProviderJob, ctx: ProviderContext) {
    const { contentType } = inputOf(job, 'audio');
    const sample = { data: await ctx.readInput('audio'), filename: 'sample', contentType };
    const { voiceId } = await exchange(ctx, (options) =>
      client.voices.ivc.create({ name: `generation ${job.generationId}`, description: 'Temporary voice for one generation, deleted after use.', files: [sample] }, options),
    );
    return speak(client, job, voiceId, ctx, () => forgetVoice(client, voiceId));
  }

  async function forgetVoice(client: ElevenLabsClient, voiceId: string): Promise<void> {
    try {
      // Not under the activity's signal: a cancelled generation still removes the voice it made.
      await client.voices.delete(voiceId, { maxRetries: 0, abortSignal: AbortSignal.timeout(opts.requestTimeoutMs) });
    } catch (err) {
      opts.logger?.warn('elevenlabs: could not delete a cloned voice; delete it in the ElevenLabs dashboard', { voice_id: voiceId, ...describeError(err) });
    }
  }

  async function transcribe(job: ProviderJob, ctx: ProviderContext): Promise<ProviderResult> {
    // The SDK reads the transcript's JSON whole (words with their timings, for a long recording).
    const client = clientFor(job.credentials, TEXT_ANSWER_CAP_BYTES);
    const { contentType } = inputOf(job, 'audio');
    const file = { data: await ctx.readInput('audio'), filename: 'audio', contentType };
    const language = languageOf(job);
    const answer = await exchange(ctx, (options) => client.speechToText.convert({ file, modelId: job.route.model, ...(language && { languageCode: language }) }, options));
    // Typed as a transcript, but the SDK accepts any of its three answer shapes.
    const text: unknown = (answer as { text?: unknown }).text;
    if (typeof text !== 'string') throw badOutput(PROVIDER, 'a transcription without text');
    return { files: [], text };
  }

  async function compose(client: ElevenLabsClient, job: ProviderJob, ctx: ProviderContext) {
    const lengthMs = Math.round(Number(job.params.duration_s) * 1000);
    const request = {
      prompt: job.prompt,
      outputFormat: OUTPUT_FORMAT,
      // Always set by the API (decisions §10); without it ElevenLabs would pick a length itself.
      ...(Number.isFinite(lengthMs) && { musicLengthMs: lengthMs }),
      // ElevenLabs can guarantee an instrumental; a song with vocals is left to the prompt.
      ...(job.params.with_vocals === false && { forceInstrumental: true }),
    } as const;
    // The model goes in raw: the SDK checks `modelId` against the ids it knows, and a route may
    // name a newer one.
    return audio(ctx, (options) => client.music.compose(request, { ...options, additionalBodyParameters: { model_id: job.route.model } }));
  }

  return {
    name: 'elevenlabs',

    async submit(job, ctx) {
      const operation = job.model.modality === 'music' ? 'music' : job.model.modality === 'voice' ? (job.params.operation ?? 'tts') : job.model.modality;
      switch (operation) {
        case 'tts': {
          const voiceId = typeof job.params.voice_id === 'string' ? job.params.voice_id : DEFAULT_VOICE_ID;
          return { state: 'done', result: { files: [await speak(clientFor(job.credentials), job, voiceId, ctx)] } };
        }
        case 'voice_clone':
          return { state: 'done', result: { files: [await speakInClonedVoice(clientFor(job.credentials), job, ctx)] } };
        case 'transcription':
          return { state: 'done', result: await transcribe(job, ctx) };
        case 'music':
          return { state: 'done', result: { files: [await compose(clientFor(job.credentials), job, ctx)] } };
        default:
          throw new ProviderError(PROVIDER_ERROR_CODES.rejected, `ElevenLabs serves voice and music only, not ${String(operation)} (check MODEL_ROUTES).`, false, {
            source: 'gateway',
          });
      }
    },

    async poll() {
      throw new ProviderError(PROVIDER_ERROR_CODES.error, 'ElevenLabs answers every request at once, so it has no job to poll (a gateway bug).', false, { source: 'gateway' });
    },

    async cancel() {
      // Nothing to stop: every ElevenLabs call ends within submit, and a cancelled activity aborts it.
    },
  };
}

/** `language` as ElevenLabs takes it: the primary ISO 639 subtag (`pt-BR` → `pt`). */
function languageOf(job: ProviderJob): string | undefined {
  const language = job.params.language;
  return typeof language === 'string' ? language.split('-')[0]!.toLowerCase() : undefined;
}

function inputOf(job: ProviderJob, name: string) {
  const input = job.inputs[name];
  if (!input) throw new ProviderError(PROVIDER_ERROR_CODES.rejected, `The ${name} input of this generation is missing.`, false, { source: 'gateway' });
  return input;
}
