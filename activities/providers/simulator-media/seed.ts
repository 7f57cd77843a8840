import { createHash } from 'node:crypto';

// Seeded randomness and the duration format shared by the media renderers.

/** The SHA-256 of seed and purpose: 32 bytes that differ for every (seed, purpose) pair. */
export function seedDigest(seed: string, purpose: string): Buffer {
  return createHash('sha256').update(`${purpose}\n${seed}`).digest();
}

/** A deterministic generator of numbers in [0, 1) (sfc32 seeded from the digest). */
export function seededRandom(seed: string, purpose: string): () => number {
  const digest = seedDigest(seed, purpose);
  let a = digest.readUInt32LE(0);
  let b = digest.readUInt32LE(4);
  let c = digest.readUInt32LE(8);
  let d = digest.readUInt32LE(12);
  return () => {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
}

/** An integer in [min, max] drawn from `random`. */
export function randomInt(random: () => number, min: number, max: number): number {
  return min + Math.floor(random() * (max - min + 1));
}

/**
 * Seconds as `duration_s` carries them: rounded to the millisecond, shortest decimal, no trailing
 * zeros ("30", "12.5", "0.125").
 */
export function formatDurationS(seconds: number): string {
  return String(Math.round(seconds * 1000) / 1000);
}

/** An `#rrggbb` colour from HSL components (h in degrees, s and l in [0, 1]). */
export function hslHex(h: number, s: number, l: number): string {
  const k = (n: number) => (n + h / 30) % 12;
  const a = s * Math.min(l, 1 - l);
  const channel = (n: number) => Math.round(255 * (l - a * Math.max(-1, Math.min(k(n) - 3, 9 - k(n), 1))));
  return `#${[0, 8, 4].map((n) => channel(n).toString(16).padStart(2, '0')).join('')}`;
}
