import { Readable } from 'node:stream';
import { renderAudio } from '../../activities/providers/simulator-media';

// The fake ElevenLabs' audio: real MP3s made at runtime by the simulator's renderer (never files in
// the repository), remembered by length so a benchmark run encodes each length once.

const SPEECH_MS_PER_CHAR = 60;
const MIN_SPEECH_MS = 500;
const MAX_SPEECH_MS = 10_000;
const CHUNK_BYTES = 16 * 1024;

const rendered = new Map<string, Promise<Buffer>>();

function mp3(kind: 'speech' | 'music', durationMs: number): Promise<Buffer> {
  const key = `${kind}:${durationMs}`;
  let data = rendered.get(key);
  if (!data) {
    data = renderAudio({ durationMs, seed: key, format: 'mp3', kind }).then((file) => file.data);
    data.catch(() => rendered.delete(key));
    rendered.set(key, data);
  }
  return data;
}

/** Speech about as long as the text would take to say, within half a second to ten seconds. */
export function speechMp3(text: string): Promise<Buffer> {
  const ms = Math.min(MAX_SPEECH_MS, Math.max(MIN_SPEECH_MS, text.length * SPEECH_MS_PER_CHAR));
  return mp3('speech', Math.round(ms / 100) * 100);
}

export function musicMp3(durationMs: number): Promise<Buffer> {
  return mp3('music', Math.round(durationMs));
}

/**
 * An MP3 stream of more than `bytes`: a one-second MP3's frames over and over, made as the reader
 * asks for them, so a reader that stops at a size cap leaves the rest unmade. `served` counts
 * what has left so far.
 */
export async function hugeMp3(bytes: number): Promise<{ stream: Readable; served: () => number }> {
  const second = await speechMp3('x'.repeat(17));
  let served = 0;
  let offset = 0;
  const stream = new Readable({
    read() {
      if (served > bytes) return void this.push(null);
      const chunk = Buffer.alloc(CHUNK_BYTES);
      for (let filled = 0; filled < CHUNK_BYTES;) {
        const copied = second.copy(chunk, filled, offset, Math.min(second.length, offset + CHUNK_BYTES - filled));
        filled += copied;
        offset = (offset + copied) % second.length;
      }
      served += chunk.length;
      this.push(chunk);
    },
  });
  return { stream, served: () => served };
}
