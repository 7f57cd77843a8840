import type { Modality } from './modalities';

// What a real provider's output may be, per modality: its media types (read from the file's own
// bytes, never the provider's word) and its size cap. A file over the cap is cut off as it streams
// in, so no output is ever held whole in memory or on disk past the cap.

const MB = 1024 * 1024;

export const OUTPUT_SIZE_CAPS: Record<Modality, number> = {
  image: 40 * MB,
  upscale: 100 * MB,
  video: 300 * MB,
  avatar: 300 * MB,
  music: 50 * MB,
  voice: 50 * MB,
  '3d': 200 * MB,
  chat: 0,
};

export const OUTPUT_TYPES: Record<Modality, readonly string[]> = {
  image: ['image/png', 'image/jpeg', 'image/webp'],
  upscale: ['image/png', 'image/jpeg', 'image/webp'],
  video: ['video/mp4', 'video/webm'],
  avatar: ['video/mp4', 'video/webm'],
  music: ['audio/mpeg', 'audio/wav', 'audio/ogg', 'audio/flac', 'audio/mp4'],
  voice: ['audio/mpeg', 'audio/wav', 'audio/ogg', 'audio/flac', 'audio/mp4'],
  '3d': ['model/gltf-binary'],
  chat: [],
};

/**
 * The media type a file's first bytes say it is, or undefined. `ftyp` containers are audio for
 * audio modalities (an M4A) and video otherwise.
 */
export function sniffMediaType(head: Buffer, modality: Modality): string | undefined {
  const ascii = (from: number, to: number) => head.subarray(from, to).toString('latin1');
  if (head.length >= 8 && head.readUInt32BE(0) === 0x89504e47) return 'image/png';
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'image/jpeg';
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'image/webp';
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WAVE') return 'audio/wav';
  if (ascii(4, 8) === 'ftyp') return modality === 'music' || modality === 'voice' ? 'audio/mp4' : 'video/mp4';
  if (head.length >= 4 && head.readUInt32BE(0) === 0x1a45dfa3) return 'video/webm';
  if (ascii(0, 4) === 'OggS') return 'audio/ogg';
  if (ascii(0, 4) === 'fLaC') return 'audio/flac';
  if (ascii(0, 4) === 'glTF') return 'model/gltf-binary';
  if (ascii(0, 3) === 'ID3') return 'audio/mpeg';
  // An MPEG audio frame header: 11 set sync bits, then a layer that is not "reserved".
  if (head.length >= 2 && head[0] === 0xff && (head[1]! & 0xe0) === 0xe0 && (head[1]! & 0x06) !== 0) return 'audio/mpeg';
  return undefined;
}
