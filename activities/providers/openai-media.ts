import type OpenAI from 'openai';
import { toFile } from 'openai';
import type { ImagesResponse } from 'openai/resources/images';
import { badOutput, PROVIDER_ERROR_CODES } from './http-failure';
import { ProviderError, type ProviderContext, type ProviderFile, type ProviderJob, type ProviderResult } from './types';

// OpenAI's media endpoints: images (generate, or edit for image-to-image), speech and
// transcription. Each answers in one HTTP exchange.

const PROVIDER = 'OpenAI';

/** The sizes GPT Image renders; an aspect ratio gets the one whose shape is nearest. */
const IMAGE_SIZES = ['1024x1024', '1536x1024', '1024x1536'] as const;
type ImageSize = (typeof IMAGE_SIZES)[number];

export function imageSizeFor(aspectRatio: unknown): ImageSize {
  const [w, h] = typeof aspectRatio === 'string' ? aspectRatio.split(':').map(Number) : [1, 1];
  const wanted = w! > 0 && h! > 0 ? Math.log(w! / h!) : 0;
  const shapeOf = (size: ImageSize) => {
    const [sw, sh] = size.split('x').map(Number);
    return Math.abs(Math.log(sw! / sh!) - wanted);
  };
  return IMAGE_SIZES.reduce((best, size) => (shapeOf(size) < shapeOf(best) ? size : best));
}

/**
 * Text-to-image through `images.generate`, image-to-image through `images.edit` with the input's
 * bytes. Quality is `medium`, the quality the catalog prices; PNG comes back as base64 JSON. GPT
 * Image has no negative prompt or seed: a negative prompt is appended as an instruction, a seed
 * is not sent.
 */
export async function runImage(client: OpenAI, job: ProviderJob, ctx: ProviderContext, signal: AbortSignal): Promise<ProviderResult> {
  const { params } = job;
  const negative = typeof params.negative_prompt === 'string' && params.negative_prompt ? `\n\nAvoid: ${params.negative_prompt}` : '';
  const common = {
    model: job.route.model,
    prompt: `${job.prompt}${negative}`,
    n: typeof params.num_outputs === 'number' ? params.num_outputs : 1,
    size: imageSizeFor(params.aspect_ratio),
    quality: 'medium' as const,
    output_format: 'png' as const,
  };
  const input = job.inputs.image;
  const answer: ImagesResponse | string | undefined = input
    ? await client.images.edit(
        { ...common, image: await toFile(await ctx.readInput('image'), `input.${extensionOf(input.contentType, 'png')}`, { type: input.contentType }) },
        { signal },
      )
    : await client.images.generate(common, { signal });
  const images = typeof answer === 'object' && Array.isArray(answer.data) ? answer.data : [];
  if (images.length === 0) throw badOutput(PROVIDER, 'the images answer holds no image');
  const mime = `image/${typeof answer === 'object' && answer.output_format ? answer.output_format : common.output_format}`;
  return {
    files: images.map((image): ProviderFile => {
      if (typeof image.b64_json === 'string' && image.b64_json) return { kind: 'bytes', data: Buffer.from(image.b64_json, 'base64'), mime };
      if (typeof image.url === 'string' && image.url) return { kind: 'url', url: image.url, mime };
      throw badOutput(PROVIDER, 'an image has neither b64_json nor url');
    }),
  };
}

/**
 * Text-to-speech through `audio.speech.create` as MP3, the voice from `voice_id` (default alloy).
 * The body is handed on as a stream, unread: the gateway's ingest stores it under the size cap. So
 * the request timeout covers the wait for the answer's headers, and `signal` (the activity's
 * cancellation) the rest.
 */
export async function runSpeech(client: OpenAI, job: ProviderJob, signal: AbortSignal): Promise<ProviderResult> {
  const { params } = job;
  if (params.operation !== undefined && params.operation !== 'tts') {
    throw new ProviderError(PROVIDER_ERROR_CODES.rejected, `OpenAI has no ${String(params.operation)} operation; its voice models speak text (tts) or transcribe.`);
  }
  const response = await client.audio.speech.create(
    {
      model: job.route.model,
      input: typeof params.text === 'string' ? params.text : job.prompt,
      voice: typeof params.voice_id === 'string' ? params.voice_id : 'alloy',
      response_format: 'mp3',
    },
    { signal },
  );
  if (!response.body || response.headers.get('content-length') === '0') throw badOutput(PROVIDER, 'the speech answer has no audio');
  return { files: [{ kind: 'stream', body: response.body, mime: response.headers.get('content-type') ?? 'audio/mpeg' }] };
}

/** Speech-to-text through `audio.transcriptions.create` with the audio input's bytes. */
export async function runTranscription(client: OpenAI, job: ProviderJob, ctx: ProviderContext, signal: AbortSignal): Promise<ProviderResult> {
  const audio = await ctx.readInput('audio');
  const contentType = job.inputs.audio?.contentType ?? 'audio/mpeg';
  const file = await toFile(audio, `audio.${extensionOf(contentType, 'mp3')}`, { type: contentType });
  const language = languageOf(job.params.language);
  const transcript: { text?: unknown } | string | undefined = await client.audio.transcriptions.create(
    { file, model: job.route.model, response_format: 'json', ...(language && { language }) },
    { signal },
  );
  if (typeof transcript !== 'object' || typeof transcript.text !== 'string') throw badOutput(PROVIDER, 'the transcription has no text');
  return { files: [], text: transcript.text };
}

/** OpenAI takes ISO-639-1 codes: the primary subtag of `en-US` is `en`. */
function languageOf(language: unknown): string | undefined {
  return typeof language === 'string' && language ? language.split('-')[0]!.toLowerCase() : undefined;
}

/** OpenAI tells a file's format by its name's extension. */
const EXTENSIONS: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'audio/mpeg': 'mp3',
  'audio/mp3': 'mp3',
  'audio/wav': 'wav',
  'audio/x-wav': 'wav',
  'audio/wave': 'wav',
  'audio/flac': 'flac',
  'audio/ogg': 'ogg',
  'audio/webm': 'webm',
  'audio/mp4': 'm4a',
  'audio/x-m4a': 'm4a',
  'video/mp4': 'mp4',
};

function extensionOf(contentType: string, fallback: string): string {
  return EXTENSIONS[contentType.split(';')[0]!.trim().toLowerCase()] ?? fallback;
}
