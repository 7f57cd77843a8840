import type OpenAI from 'openai';
import { inlineAnswerCap, TEXT_ANSWER_CAP_BYTES } from './capped-answers';
import { PROVIDER_ERROR_CODES, requestSignal } from './http-failure';
import { runChat } from './openai-chat';
import { createOpenAIClients, failureFromOpenAI } from './openai-client';
import { runImage, runSpeech, runTranscription } from './openai-media';
import { ProviderError, type AdapterOptions, type ProviderAdapter, type ProviderContext, type ProviderJob, type ProviderResult } from './types';

// OpenAI through its official SDK, and any OpenAI-compatible server (vLLM, Ollama, LocalAI, a
// company gateway) through the same code under the name `openai_compatible`, for chat only.
// Both answer in one request: `submit` returns the result, there is nothing to poll or cancel.

type OpenAIProvider = 'openai' | 'openai_compatible';

const DISPLAY_NAME: Record<OpenAIProvider, string> = {
  openai: 'OpenAI',
  openai_compatible: 'The OpenAI-compatible server',
};

export function createOpenAIAdapter(opts: AdapterOptions): ProviderAdapter {
  return createAdapter('openai', opts);
}

/** Chat on any server that speaks OpenAI's Chat Completions protocol; the key may be empty. */
export function createOpenAICompatibleAdapter(opts: AdapterOptions): ProviderAdapter {
  return createAdapter('openai_compatible', opts);
}

type Operation = (client: OpenAI, ctx: ProviderContext) => Promise<ProviderResult>;

function createAdapter(name: OpenAIProvider, opts: AdapterOptions): ProviderAdapter {
  const clientFor = createOpenAIClients(opts);
  const displayName = DISPLAY_NAME[name];
  return {
    name,

    async submit(job, ctx) {
      const operation = operationFor(name, job, opts);
      try {
        const result = await operation(clientFor(job.credentials, answerCapBytes(job, ctx)), ctx);
        return { state: 'done', result };
      } catch (err) {
        throw failureFromOpenAI(displayName, err, ctx.signal);
      }
    },

    async poll() {
      throw new ProviderError(PROVIDER_ERROR_CODES.error, `${displayName} answers at once; there is no queued job to poll.`, false, { source: 'gateway' });
    },

    async cancel() {
      // Nothing is queued at the provider: a cancelled activity aborts its request (ctx.signal).
    },
  };
}

/**
 * The most of an answer that is read: the base64 of the images asked for, a speech body (the file
 * itself) up to the cap, a text answer up to TEXT_ANSWER_CAP_BYTES.
 */
function answerCapBytes(job: ProviderJob, ctx: ProviderContext): number {
  const { modality } = job.model;
  if (modality === 'image') return inlineAnswerCap(ctx.outputCapBytes, typeof job.params.num_outputs === 'number' ? job.params.num_outputs : 1);
  if (modality === 'voice' && job.params.operation !== 'transcription') return ctx.outputCapBytes;
  return TEXT_ANSWER_CAP_BYTES;
}

/**
 * What to call for the job's modality, or a non-retryable refusal for one this provider lacks.
 * A JSON answer must arrive whole within the request timeout. A speech body is streamed on after
 * `submit` returns, so only the wait for its headers is timed (the SDK's timeout); after that only
 * cancellation ends it.
 */
function operationFor(name: OpenAIProvider, job: ProviderJob, opts: AdapterOptions): Operation {
  const { modality, slug } = job.model;
  const bounded = (ctx: ProviderContext) => requestSignal(ctx.signal, opts.requestTimeoutMs);
  if (modality === 'chat') return (client, ctx) => runChat(client, job, name, DISPLAY_NAME[name], bounded(ctx));
  if (name === 'openai_compatible') {
    throw new ProviderError(
      PROVIDER_ERROR_CODES.rejected,
      `An OpenAI-compatible server is used for chat only; ${slug} is not a chat model (modality ${modality}). Route it to another provider.`,
    );
  }
  if (modality === 'image') return (client, ctx) => runImage(client, job, ctx, bounded(ctx));
  if (modality === 'voice' && job.params.operation === 'transcription') return (client, ctx) => runTranscription(client, job, ctx, bounded(ctx));
  if (modality === 'voice') return (client, ctx) => runSpeech(client, job, ctx.signal);
  throw new ProviderError(PROVIDER_ERROR_CODES.rejected, `OpenAI serves chat, image and voice models; ${slug} is not one of them (modality ${modality}).`);
}
