import type { ProducedFile } from '../types';
import { BITEXACT, runFfmpegToFile } from '../../../lib/ffmpeg';
import { formatDurationS } from './seed';
import { synthesize } from './synth';

export interface AudioRequest {
  /** Length in milliseconds, rounded to a whole millisecond. */
  durationMs: number;
  seed: string;
  format: 'wav' | 'mp3';
  kind: 'speech' | 'music';
}

/** Longest audio the simulator writes: an hour. */
export const MAX_AUDIO_MS = 3_600_000;

// 24 kHz holds a whole number of samples per millisecond, so every length is exact, and keeps
// LAME's encoder delay (1,105 samples plus up to one frame of padding, which ffprobe counts in an
// MP3's length) under 0.1 s; at 16 kHz it would reach 105 ms. LAME's time grows with the sample
// count: at q9 a 180 s track takes about 1.2 s of CPU on a small VM (0.9 s at 16 kHz).
const RATE = 24_000;

/**
 * Mono audio of exactly `durationMs`: 16-bit PCM WAV, or a 32 kbps MP3 whose decoded length is
 * exact thanks to its LAME gapless header (ffprobe, counting frames, reports 46 to 70 ms more).
 * `durationS` is the exact length in seconds, shortest decimal ("30", "12.5").
 */
export async function renderAudio({ durationMs, seed, format, kind }: AudioRequest): Promise<ProducedFile> {
  const ms = Math.round(durationMs);
  if (!(ms >= 1 && ms <= MAX_AUDIO_MS)) throw new RangeError(`Audio length must be 1 ms to 1 hour, got ${durationMs} ms.`);
  const pcm = synthesize(kind, seed, (ms * RATE) / 1000, RATE);
  const input = ['-f', 's16le', '-ar', String(RATE), '-ac', '1', '-i', 'pipe:0'];
  const durationS = formatDurationS(ms / 1000);
  // Generous next to the encoder's ~0.01 s per second of audio, for busy machines.
  const timeoutMs = 30_000 + ms / 20;
  if (format === 'mp3') {
    const codec = ['-c:a', 'libmp3lame', '-b:a', '32k', '-compression_level', '9'];
    const data = await runFfmpegToFile('mp3', (out) => [...input, ...codec, ...BITEXACT, out], pcm, timeoutMs);
    return { data, mime: 'audio/mpeg', extension: 'mp3', durationS };
  }
  const data = await runFfmpegToFile('wav', (out) => [...input, '-c:a', 'pcm_s16le', ...BITEXACT, out], pcm, timeoutMs);
  return { data, mime: 'audio/wav', extension: 'wav', durationS };
}
