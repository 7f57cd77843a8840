import { createHash } from 'node:crypto';
import { DEFAULT_ASPECT_RATIO, imageSize, type AspectRatio } from '../../domain/image-sizes';
import { defaultVideoDurationS, MUSIC_DURATION_S, speechDurationMs } from '../../domain/media-durations';
import { MODALITY_MODE } from '../../domain/modalities';
import { parseSimulatorDirectives, shouldFail } from '../../domain/simulator-directives';
import { renderAudio, renderImage, renderImageFromInput, renderMesh, renderVideo, transcribe, upscaleImage, videoSize, type MediaLabel } from './simulator-media';
import { probe } from '../../lib/ffmpeg';
import { ProviderError, type ProducedFile, type ProviderAdapter, type ProviderContext, type ProviderJob, type ProviderResult } from './types';

// The built-in provider (decisions §7): runs every model offline and writes real media files.
// Output depends only on model, prompt, seed and position, so a seed reproduces a result.
//
// For the async modalities it behaves like a real queue (fal.ai, Replicate): submit returns a job
// id, polls say "pending" until the job's latency has passed, then the result. The job id carries
// the submission time and latency, so polling survives a worker restart like a real provider's
// job does, and there is nothing to clean up.

/** How often a slow job's wait looks at its activity's cancellation. */
const CANCEL_CHECK_EVERY_MS = 500;
const MAX_POLL_HINT_MS = 1_000;
/** Submissions remembered by idempotency key, as a real provider remembers them for a while. */
const REMEMBERED_SUBMISSIONS = 10_000;

export interface SimulatorOptions {
  /** How long an async job takes without `#slow` (SIMULATOR_ASYNC_LATENCY_MS). */
  asyncLatencyMs: number;
}

interface SimulatedJob {
  submittedAt: number;
  latencyMs: number;
}

export function createSimulator(opts: SimulatorOptions): ProviderAdapter {
  // Like a provider's idempotency header: a repeated submission gets the job it already started.
  const submissions = new Map<string, string>();
  function remember(key: string, providerJobId: string): void {
    submissions.set(key, providerJobId);
    if (submissions.size > REMEMBERED_SUBMISSIONS) submissions.delete(submissions.keys().next().value!);
  }

  return {
    name: 'simulator',

    async submit(job, ctx) {
      const directives = parseSimulatorDirectives(job.prompt);
      if (MODALITY_MODE[job.model.modality] === 'sync') {
        await sleepUnlessCancelled(directives.slowMs, ctx.signal);
        return { state: 'done', result: await finish(job, ctx) };
      }
      const known = submissions.get(job.idempotencyKey);
      if (known) return { state: 'pending', providerJobId: known, pollAfterMs: MAX_POLL_HINT_MS };
      const simulated: SimulatedJob = { submittedAt: Date.now(), latencyMs: directives.slowMs || opts.asyncLatencyMs };
      const providerJobId = `sim_${Buffer.from(JSON.stringify(simulated)).toString('base64url')}`;
      remember(job.idempotencyKey, providerJobId);
      if (job.callbackUrl) callBackWhenDone(job.callbackUrl, simulated.latencyMs);
      return { state: 'pending', providerJobId, pollAfterMs: Math.min(simulated.latencyMs, MAX_POLL_HINT_MS) };
    },

    async poll(job, providerJobId, ctx) {
      const simulated = decodeJobId(providerJobId);
      const remaining = simulated.submittedAt + simulated.latencyMs - Date.now();
      if (remaining > 0) return { state: 'pending', pollAfterMs: Math.min(remaining, MAX_POLL_HINT_MS) };
      return { state: 'done', result: await finish(job, ctx) };
    },

    async cancel() {
      // Nothing runs between polls: a cancelled simulated job simply is never polled again.
    },
  };
}

/**
 * Like fal.ai's and Replicate's webhooks: a POST to the callback URL once the job is done. Best
 * effort, as theirs are: a worker that restarts in between loses it, and polling still finds the job.
 */
function callBackWhenDone(callbackUrl: string, latencyMs: number): void {
  const timer = setTimeout(() => {
    fetch(callbackUrl, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"status":"completed"}' }).catch(() => undefined);
  }, latencyMs);
  timer.unref();
}

function decodeJobId(providerJobId: string): SimulatedJob {
  try {
    const parsed = JSON.parse(Buffer.from(providerJobId.replace(/^sim_/, ''), 'base64url').toString('utf8')) as SimulatedJob;
    if (typeof parsed.submittedAt === 'number' && typeof parsed.latencyMs === 'number') return parsed;
  } catch {
    // fall through
  }
  throw new ProviderError('provider_error', `The simulator has no job ${providerJobId}.`);
}

async function finish(job: ProviderJob, ctx: ProviderContext): Promise<ProviderResult> {
  if (shouldFail(parseSimulatorDirectives(job.prompt), job.model.slug)) {
    throw new ProviderError('provider_error', 'The simulator failed this generation because the prompt contains #fail.');
  }
  return produce(job, ctx);
}

async function sleepUnlessCancelled(ms: number, signal: AbortSignal): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    signal.throwIfAborted();
    await new Promise((resolve) => setTimeout(resolve, Math.min(CANCEL_CHECK_EVERY_MS, deadline - Date.now())));
  }
  signal.throwIfAborted();
}

function seedOf(job: ProviderJob, position = 0): string {
  const seed = typeof job.params.seed === 'number' ? `seed:${job.params.seed}` : `gen:${job.generationId}`;
  return createHash('sha256').update(`${job.model.slug}\n${job.prompt}\n${seed}\n${position}`).digest('hex');
}

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** What a simulated image or video frame says it is: the model the job ran and its prompt. */
const labelOf = (job: ProviderJob): MediaLabel => ({ model: job.model.slug, prompt: job.prompt });

async function produce(job: ProviderJob, ctx: ProviderContext): Promise<ProviderResult> {
  const { params } = job;
  switch (job.model.modality) {
    case 'image': {
      const { width, height } = imageSize((params.aspect_ratio as AspectRatio | undefined) ?? DEFAULT_ASPECT_RATIO);
      const count = typeof params.num_outputs === 'number' ? params.num_outputs : 1;
      // Image-to-image: every output is the input image, tinted by its own seed.
      const input = job.inputs.image ? await ctx.readInput('image') : undefined;
      const files: ProducedFile[] = [];
      const label = labelOf(job);
      for (let position = 0; position < count; position++) {
        const seed = seedOf(job, position);
        files.push(input ? await renderImageFromInput({ input, width, height, seed, label }) : await renderImage({ width, height, seed, format: 'png', label }));
      }
      return { files };
    }
    case 'video': {
      const durationS = typeof params.duration_s === 'number' ? params.duration_s : defaultVideoDurationS(job.model);
      return { files: [await renderVideo({ durationS, ...videoSize(str(params.aspect_ratio) ?? '16:9'), seed: seedOf(job), label: labelOf(job) })] };
    }
    case 'music': {
      const durationS = typeof params.duration_s === 'number' ? params.duration_s : MUSIC_DURATION_S.default;
      return { files: [await renderAudio({ durationMs: durationS * 1000, seed: seedOf(job), format: 'mp3', kind: 'music' })] };
    }
    case 'voice': {
      if (params.operation === 'transcription') {
        const transcript = await transcribe({ audio: await ctx.readInput('audio'), seed: seedOf(job) });
        return { files: [], text: transcript.text };
      }
      const text = str(params.text) ?? '';
      return { files: [await renderAudio({ durationMs: speechDurationMs(text), seed: seedOf(job), format: 'mp3', kind: 'speech' })] };
    }
    case 'avatar': {
      const durationS = job.inputs.audio ? await audioSeconds(await ctx.readInput('audio')) : speechDurationMs(str(params.text) ?? '') / 1000;
      return { files: [await renderVideo({ durationS, ...videoSize('9:16'), seed: seedOf(job), audio: true, label: labelOf(job) })] };
    }
    case 'chat':
      return chatReply(job);
    case '3d':
      return {
        files: [
          await renderMesh({
            seed: seedOf(job),
            complexity: (str(params.mesh_complexity) as 'low' | 'medium' | 'high' | undefined) ?? 'medium',
            textureSize: Number(params.texture_size ?? 1024) as 1024 | 2048 | 4096,
            rigged: params.rigged === true,
          }),
        ],
      };
    case 'upscale':
      return {
        files: [
          await upscaleImage({
            input: await ctx.readInput('image'),
            scaleFactor: Number(params.scale_factor ?? 2) as 2 | 4,
            faceEnhance: params.face_enhance === true,
          }),
        ],
      };
  }
}

async function audioSeconds(audio: Buffer): Promise<number> {
  const duration = Number((await probe(audio)).format?.duration);
  if (!(duration > 0)) throw new ProviderError('invalid_input', 'The audio input has no readable duration.');
  return duration;
}

const WORDS = ['the', 'model', 'answers', 'with', 'a', 'simulated', 'reply', 'about', 'your', 'question', 'in', 'plain', 'words'];

/** A deterministic reply: `#tokens:<n>` tokens when asked for, else a short sentence; never above max_tokens. */
function chatReply(job: ProviderJob): ProviderResult {
  const maxTokens = typeof job.params.max_tokens === 'number' ? job.params.max_tokens : 1024;
  const asked = parseSimulatorDirectives(job.prompt).tokens;
  const outputTokens = Math.min(maxTokens, asked ?? 24);
  const digest = createHash('sha256').update(seedOf(job)).digest();
  const words = Array.from({ length: outputTokens }, (_, i) => WORDS[(digest[i % digest.length]! + i) % WORDS.length]);
  const messages = Array.isArray(job.params.messages) ? job.params.messages : [];
  const inputChars = messages.reduce((sum: number, m: { content?: string }) => sum + (m.content?.length ?? 0), 0) + (str(job.params.system_prompt)?.length ?? 0);
  return {
    files: [],
    text: words.join(' '),
    usage: { inputTokens: Math.max(1, Math.ceil(inputChars / 4)), outputTokens },
  };
}
