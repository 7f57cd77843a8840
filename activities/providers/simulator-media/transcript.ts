import { ProviderError } from '../types';
import { FfmpegError, probe, type ProbeResult } from '../../../lib/ffmpeg';
import { formatDurationS, randomInt, seededRandom } from './seed';

export interface TranscribeRequest {
  audio: Buffer;
  seed: string;
}

export interface Transcript {
  text: string;
  /** The audio's real length, as ffprobe reads it, in the `duration_s` format. */
  durationS: string;
}

const WORDS_PER_SECOND = 2.5;
const VOCABULARY = [
  'the',
  'a',
  'signal',
  'model',
  'river',
  'quietly',
  'bright',
  'window',
  'seven',
  'orbit',
  'paper',
  'listen',
  'moves',
  'under',
  'across',
  'garden',
  'number',
  'simple',
  'morning',
  'engine',
  'voice',
  'carries',
  'small',
  'through',
  'north',
  'amber',
  'station',
  'returns',
  'between',
  'lantern',
  'measured',
  'distant',
  'harbor',
  'follows',
  'silver',
  'minute',
  'open',
  'and',
  'of',
  'to',
];

/**
 * A deterministic stand-in transcript, "[simulated transcript, 12.5 s] Words ...", about 2.5 words
 * per second of audio. Anything ffprobe cannot read as audio is `invalid_input`.
 */
export async function transcribe({ audio, seed }: TranscribeRequest): Promise<Transcript> {
  const seconds = audioSeconds(await probeAudio(audio));
  const durationS = formatDurationS(seconds);
  const random = seededRandom(seed, 'transcript');
  const sentences: string[] = [];
  for (let left = Math.max(1, Math.round(seconds * WORDS_PER_SECOND)); left > 0;) {
    const count = Math.min(left, randomInt(random, 5, 12));
    const words = Array.from({ length: count }, () => VOCABULARY[randomInt(random, 0, VOCABULARY.length - 1)]!);
    sentences.push(`${words.join(' ').replace(/^./, (c) => c.toUpperCase())}.`);
    left -= count;
  }
  return { text: `[simulated transcript, ${durationS} s] ${sentences.join(' ')}`, durationS };
}

async function probeAudio(audio: Buffer): Promise<ProbeResult> {
  try {
    return await probe(audio);
  } catch (err) {
    if (err instanceof FfmpegError && err.exitCode !== null) {
      throw new ProviderError('invalid_input', 'The input is not audio the transcriber can read.');
    }
    throw err;
  }
}

function audioSeconds({ format, streams }: ProbeResult): number {
  const stream = streams.find((s) => s.codec_type === 'audio');
  const seconds = [format.duration, stream?.duration].map(Number).find((n) => n > 0);
  if (!stream || seconds === undefined) throw new ProviderError('invalid_input', 'The input holds no audio of measurable length.');
  return seconds;
}
