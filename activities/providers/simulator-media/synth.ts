import { endianness } from 'node:os';
import { randomInt, seededRandom } from './seed';

// Seeded sine-tone sound as mono 16-bit PCM: a chord progression with an arpeggio for music,
// syllable-like bursts of a gliding voiced tone for speech. Oscillators read one sine table with
// phase accumulators, so three minutes of music take tens of milliseconds.

const TABLE_SIZE = 4096;
const SINE = Float32Array.from({ length: TABLE_SIZE }, (_, i) => Math.sin((2 * Math.PI * i) / TABLE_SIZE));

/** Chords as scale degrees (0 = tonic), four bars per progression. */
const PROGRESSIONS = [
  [0, 4, 5, 3],
  [0, 5, 3, 4],
  [5, 3, 0, 4],
  [0, 3, 4, 3],
  [0, 2, 3, 4],
];
const MAJOR = [0, 2, 4, 5, 7, 9, 11];
const MINOR = [0, 2, 3, 5, 7, 8, 10];
const ARPEGGIOS = [
  [0, 1, 2, 1],
  [0, 1, 2, 3],
  [0, 2, 1, 2],
  [3, 2, 1, 0],
];

/** Mono s16le PCM of exactly `samples` samples. */
export function synthesize(kind: 'speech' | 'music', seed: string, samples: number, sampleRate: number): Buffer {
  const mix = new Float32Array(samples);
  if (kind === 'music') composeMusic(mix, seed, sampleRate);
  else composeSpeech(mix, seed, sampleRate);
  return toPcm(mix, sampleRate);
}

/**
 * Eight bars (the progression twice, with two arpeggio patterns) rendered once and repeated: every
 * note ends inside its bar, so the repeats join without clicks and a long track costs no more.
 */
function composeMusic(mix: Float32Array, seed: string, rate: number): void {
  const random = seededRandom(seed, 'music');
  const root = randomInt(random, 45, 57);
  const scale = random() < 0.5 ? MAJOR : MINOR;
  const progression = PROGRESSIONS[randomInt(random, 0, PROGRESSIONS.length - 1)]!;
  const patterns = [0, 1].map(() => ARPEGGIOS[randomInt(random, 0, ARPEGGIOS.length - 1)]!);
  const beat = Math.round((60 / randomInt(random, 84, 132)) * rate);
  const bar = beat * 4;
  const step = beat / 2;
  const phrase = new Float32Array(Math.min(mix.length, bar * progression.length * patterns.length));
  const clip = (at: number, length: number) => Math.min(length, phrase.length - at);
  for (let start = 0, bars = 0; start < phrase.length; start += bar, bars++) {
    const degree = progression[bars % progression.length]!;
    const pattern = patterns[Math.floor(bars / progression.length) % patterns.length]!;
    const chord = [0, 2, 4, 7].map((offset) => noteOf(scale, root, degree + offset));
    for (const note of chord.slice(0, 3)) tone(phrase, start, clip(start, bar), hz(note + 12), 0.07, rate * 0.08, 0, rate);
    for (let b = 0; b < 4; b++) {
      const at = start + b * beat;
      tone(phrase, at, clip(at, beat), hz(chord[0]! - 12), 0.22, rate * 0.005, 3, rate);
    }
    for (let s = 0; s < 8; s++) {
      const at = start + Math.round(s * step);
      const note = chord[pattern[s % pattern.length]!]! + 24;
      tone(phrase, at, clip(at, Math.round(step)), hz(note), 0.16, rate * 0.004, 6, rate);
    }
  }
  for (let at = 0; at < mix.length; at += phrase.length) {
    mix.set(phrase.subarray(0, Math.min(phrase.length, mix.length - at)), at);
  }
}

function composeSpeech(mix: Float32Array, seed: string, rate: number): void {
  const random = seededRandom(seed, 'speech');
  const pitch = 100 + random() * 120;
  let at = Math.round(rate * 0.1);
  let wordsInSentence = randomInt(random, 5, 12);
  while (at < mix.length) {
    const syllables = randomInt(random, 1, 3);
    for (let s = 0; s < syllables && at < mix.length; s++) {
      const length = Math.min(Math.round(rate * (0.12 + random() * 0.16)), mix.length - at);
      const f0 = pitch * (0.88 + random() * 0.24);
      const glide = (random() - 0.5) * 0.3 * f0;
      const harmonics = [1, 0.3 + random() * 0.5, 0.1 + random() * 0.3];
      harmonics.forEach((weight, h) => syllable(mix, at, length, f0 * (h + 1), glide * (h + 1), 0.3 * weight, rate));
      at += length + Math.round(rate * (0.02 + random() * 0.04));
    }
    at += Math.round(rate * (0.08 + random() * 0.12));
    if (--wordsInSentence === 0) {
      at += Math.round(rate * (0.35 + random() * 0.25));
      wordsInSentence = randomInt(random, 5, 12);
    }
  }
}

/** A sine note with a linear attack and an exponential decay (`decay` per second; 0 holds). */
function tone(mix: Float32Array, start: number, length: number, freq: number, amp: number, attack: number, decay: number, rate: number): void {
  const increment = (freq * TABLE_SIZE) / rate;
  const rise = Math.max(1, Math.round(attack));
  const releaseAt = length - Math.min(Math.round(rate * 0.01), length);
  const fall = Math.exp(-decay / rate);
  let phase = 0;
  let envelope = amp;
  for (let i = 0; i < length; i++) {
    let gain = envelope;
    if (i < rise) gain *= i / rise;
    if (i > releaseAt) gain *= (length - i) / (length - releaseAt);
    mix[start + i]! += SINE[phase | 0]! * gain;
    phase += increment;
    if (phase >= TABLE_SIZE) phase -= TABLE_SIZE;
    envelope *= fall;
  }
}

/** A tone whose frequency glides by `glide` Hz under a half-sine amplitude envelope. */
function syllable(mix: Float32Array, start: number, length: number, freq: number, glide: number, amp: number, rate: number): void {
  let increment = (freq * TABLE_SIZE) / rate;
  const incrementStep = (glide * TABLE_SIZE) / rate / length;
  const envelopeStep = TABLE_SIZE / 2 / length;
  let phase = 0;
  for (let i = 0; i < length; i++) {
    mix[start + i]! += SINE[phase | 0]! * amp * SINE[(i * envelopeStep) | 0]!;
    phase += increment;
    if (phase >= TABLE_SIZE) phase -= TABLE_SIZE;
    else if (phase < 0) phase += TABLE_SIZE;
    increment += incrementStep;
  }
}

function noteOf(scale: number[], root: number, degree: number): number {
  return root + 12 * Math.floor(degree / 7) + scale[degree % 7]!;
}

function hz(midi: number): number {
  return 440 * 2 ** ((midi - 69) / 12);
}

/** Clips to 16 bits and fades the last half second out so the file does not end in a click. */
function toPcm(mix: Float32Array, rate: number): Buffer {
  const fade = Math.min(Math.round(rate * 0.5), mix.length);
  for (let i = mix.length - fade; i < mix.length; i++) mix[i]! *= (mix.length - i) / fade;
  const pcm = new Int16Array(mix.length);
  for (let i = 0; i < mix.length; i++) {
    // Int16Array stores by truncation; clipping first keeps loud peaks from wrapping around.
    const value = mix[i]! * 32767;
    pcm[i] = value > 32767 ? 32767 : value < -32768 ? -32768 : value;
  }
  const bytes = Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength);
  return endianness() === 'LE' ? bytes : bytes.swap16();
}
