import { imageSize, type AspectRatio } from './image-sizes';
import type { JobMeasure } from './pricing';

// What each kind of request is priced on before it runs (spec §1, decisions §4), from the fields
// it was sent with (defaults applied). The one place the API's reservation
// (api/admission/generation-requests/*) and the dashboard's estimate shown before sending read it,
// so the two cannot drift apart. Requests priced on an uploaded file (upscale, transcription,
// lipsync) measure the file, where the API reads it; text-to-avatar is priced on how long saying
// its text takes (speechDurationMs, domain/media-durations.ts).

export const REQUEST_MEASURES = {
  /** Images: how many, at the aspect ratio's size. */
  image: (numOutputs: number, aspectRatio: AspectRatio): JobMeasure => {
    const { width, height } = imageSize(aspectRatio);
    return { count: numOutputs, widthPx: width, heightPx: height };
  },
  /** Video and music: the length asked for. */
  timed: (durationS: number): JobMeasure => ({ durationMs: durationS * 1000 }),
  /** Chat: reserved on max_tokens, charged on the output tokens reported (spec §1). */
  chat: (maxTokens: number): JobMeasure => ({ outputTokens: maxTokens }),
  /** Text-to-speech and voice cloning: the characters spoken. */
  speech: (text: string): JobMeasure => ({ characters: text.length }),
  /** Transcription: the length of the audio written down, as the API measures the input file. */
  transcription: (audioMs: number): JobMeasure => ({ durationMs: audioMs }),
  /** 3D: one mesh. */
  threeD: (): JobMeasure => ({ count: 1 }),
  /** Upscale: the output's size, the input image's width and height times the scale factor (per output megapixel). */
  upscale: (input: { width: number; height: number }, scaleFactor: number): JobMeasure => ({ widthPx: input.width * scaleFactor, heightPx: input.height * scaleFactor }),
} as const;
