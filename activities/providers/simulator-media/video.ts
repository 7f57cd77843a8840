import type { ProducedFile } from '../types';
import { BITEXACT, runFfmpegToFile } from '../../../lib/ffmpeg';
import { labelOverlay, type MediaLabel } from './label';
import { formatDurationS, hslHex, randomInt, seededRandom } from './seed';
import { synthesize } from './synth';

export interface VideoRequest {
  /** Length in seconds; frames come at 12 fps, so it is rounded to a whole frame. */
  durationS: number;
  width: number;
  height: number;
  seed: string;
  /** Adds an AAC track of speech-like tones (for avatars and lipsync). */
  audio?: boolean;
  /** What the simulator ran, on every frame along the bottom edge; the providers' test fakes leave it out. */
  label?: MediaLabel;
}

/** Longest video the simulator writes: ten minutes. */
export const MAX_VIDEO_S = 600;

const FPS = 12;
const CELL = 32;
const AUDIO_RATE = 24_000;
const AREA = 640 * 360;

/** The sizes callers see most, as a provider would pick them; other ratios follow `AREA`. */
const COMMON_SIZES: Record<string, { width: number; height: number }> = {
  '16:9': { width: 640, height: 360 },
  '9:16': { width: 360, height: 640 },
  '1:1': { width: 480, height: 480 },
  '4:3': { width: 640, height: 480 },
  '3:4': { width: 480, height: 640 },
  '21:9': { width: 840, height: 360 },
  '9:21': { width: 360, height: 840 },
};

/**
 * A modest frame size for an aspect ratio `W:H` (whole numbers 1 to 100): even sides, about
 * 230,000 pixels, and the exact ratio whenever even sides allow it.
 */
export function videoSize(aspectRatio: string): { width: number; height: number } {
  const common = COMMON_SIZES[aspectRatio];
  if (common) return { ...common };
  const match = /^(\d{1,3}):(\d{1,3})$/.exec(aspectRatio);
  const [w, h] = [Number(match?.[1]), Number(match?.[2])];
  if (!match || w < 1 || h < 1 || w > 100 || h > 100) {
    throw new RangeError(`Aspect ratio must be W:H with whole numbers 1 to 100, got "${aspectRatio}".`);
  }
  const divisor = gcd(w, h);
  const [rw, rh] = [w / divisor, h / divisor];
  // Sides are rw*k by rh*k; after reduction one of rw, rh is odd, so k must be even.
  const k = Math.round(Math.sqrt(AREA / (rw * rh)) / 2) * 2;
  if (k >= 2) return { width: rw * k, height: rh * k };
  const even = (n: number) => Math.max(2, Math.round(n / 2) * 2);
  return { width: even(Math.sqrt((AREA * w) / h)), height: even(Math.sqrt((AREA * h) / w)) };
}

/**
 * An H.264 MP4 of `width`x`height`: the seed's Game of Life in its own colours, crossed by a
 * gliding block, at 12 fps (a 10 s clip renders in well under a second). The label is drawn once,
 * as a raw RGBA band, and ffmpeg overlays it on every frame.
 */
export async function renderVideo({ durationS, width, height, seed, audio = false, label }: VideoRequest): Promise<ProducedFile> {
  // Whole frames that cover the length asked (an avatar's clip covers all of its speech); the
  // epsilon keeps an exact length (5 s = 60 frames) from gaining a frame to binary noise.
  const frames = Math.ceil(durationS * FPS - 1e-9);
  if (!(frames >= 1 && durationS <= MAX_VIDEO_S)) throw new RangeError(`Video length must be 1 frame to 10 minutes, got ${durationS} s.`);
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 2 || height < 2 || width % 2 || height % 2) {
    throw new RangeError(`Video sides must be even whole numbers, got ${width}x${height}.`);
  }
  const seconds = frames / FPS;
  const ms = Math.round(seconds * 1000);
  const pcm = audio ? synthesize('speech', seed, (ms * AUDIO_RATE) / 1000, AUDIO_RATE) : undefined;
  const audioInput = pcm ? ['-f', 's16le', '-ar', String(AUDIO_RATE), '-ac', '1', '-i', 'pipe:0'] : [];
  const overlay = label ? labelOverlay(width, height, label) : undefined;
  // The band is the input after the audio: one raw frame, which the overlay repeats to the end.
  const labelInput = (path: string | undefined) => (overlay && path ? ['-f', 'rawvideo', '-pix_fmt', 'rgba', '-s', `${width}x${overlay.height}`, '-i', path] : []);
  const graph = overlay ? `${scene(seed, width, height, 'scene')};[scene][${pcm ? 1 : 0}:v]overlay=x=0:y=${overlay.top}[v]` : scene(seed, width, height, 'v');
  const audioOutput = pcm ? ['-map', '0:a', '-c:a', 'aac', '-b:a', '64k'] : [];
  const video = ['-map', '[v]', '-c:v', 'libx264', '-preset', 'ultrafast', '-crf', '30', '-pix_fmt', 'yuv420p'];
  // A fixed thread count: x264's output depends on it, and the seed must give the same file everywhere.
  const output = [...video, '-threads', '2', ...audioOutput, '-t', String(seconds), '-movflags', '+faststart'];
  const data = await runFfmpegToFile(
    'mp4',
    (out, inputs) => [...audioInput, ...labelInput(inputs.label), '-filter_complex', graph, ...output, ...BITEXACT, out],
    pcm,
    // Generous next to the ~0.04 s per second of video it takes, for busy machines.
    30_000 + seconds * 1000,
    overlay ? { label: overlay.rgba } : {},
  );
  return { data, mime: 'video/mp4', extension: 'mp4', width, height, durationS: formatDurationS(seconds) };
}

/** The filter graph: life cells of 32 px scaled up and cropped to size, a block overlaid on top, as `[output]`. */
function scene(seed: string, width: number, height: number, output: string): string {
  const random = seededRandom(seed, 'video');
  const hue = random() * 360;
  const colour = (offset: number, s: number, l: number) => hslHex((hue + offset) % 360, s, l).replace('#', '0x');
  const life = [
    `s=${Math.ceil(width / CELL)}x${Math.ceil(height / CELL)}`,
    `r=${FPS}`,
    `seed=${randomInt(random, 0, 2 ** 32 - 1)}`,
    `ratio=${(0.2 + random() * 0.25).toFixed(3)}`,
    `mold=${randomInt(random, 8, 32)}`,
    `life_color=${colour(0, 0.8, 0.6)}`,
    `death_color=${colour(180, 0.5, 0.15)}`,
    `mold_color=${colour(90, 0.4, 0.3)}`,
  ].join(':');
  const side = Math.max(2, Math.round(Math.min(width, height) / 4 / 2) * 2);
  const [periodX, periodY] = [3 + random() * 4, 3 + random() * 4];
  return [
    `life=${life},format=yuv420p,scale=iw*${CELL}:ih*${CELL}:flags=neighbor,crop=${width}:${height}:0:0[bg]`,
    `color=c=${colour(240, 0.9, 0.55)}:s=${side}x${side}:r=${FPS},format=yuv420p[block]`,
    `[bg][block]overlay=x='(W-w)/2*(1+sin(2*PI*t/${periodX.toFixed(3)}))':y='(H-h)/2*(1+cos(2*PI*t/${periodY.toFixed(3)}))':shortest=1[${output}]`,
  ].join(';');
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}
