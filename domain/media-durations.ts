import type { ModelEntry } from './catalog';

// How long the timed outputs are, decided once so that the estimate the API reserves and the
// files the simulator writes always agree.

/** Speech is read at about 15 characters a second (about 150 words a minute). */
export const SPEECH_CHARS_PER_SECOND = 15;

export function speechDurationMs(text: string): number {
  return Math.max(1_000, Math.round((text.length / SPEECH_CHARS_PER_SECOND) * 1_000));
}

/** Spec §8: music is 15 to 180 seconds; a request without a duration gets 30. */
export const MUSIC_DURATION_S = { min: 15, max: 180, default: 30 } as const;

/** A video request without `duration_s` gets the model's shortest length. */
export function defaultVideoDurationS(model: ModelEntry): number {
  return model.limits.durationsS?.[0] ?? model.limits.minDurationS ?? 5;
}

/** Chat: what a request may reserve, the smaller of the API cap and the model's own. */
export function chatMaxTokensAllowed(model: ModelEntry, apiCap: number): number {
  return Math.min(apiCap, model.limits.maxOutputTokens ?? apiCap);
}
