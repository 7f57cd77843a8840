import { RequestTimeoutError, requestJson } from '../lib/http-client';
import type { ProbeOutcome } from '../lib/probe-trickle';

// The chaos run's generations: every modality, some failing (#fail), most slow enough (#slow) to
// be in flight when the faults hit, and some cancelled while the faults happen.

export const TERMINAL = ['succeeded', 'failed', 'canceled'] as const;
const REQUEST_TIMEOUT_MS = 30_000;

/** One creation request of the workload: a generation, or a comparison (bench/chaos/comparison-workload.ts). */
export interface PlannedRequest {
  route: string;
  modality: string;
  body: Record<string, unknown>;
  fails: boolean;
  cancel: boolean;
}

export interface PlannedGeneration extends PlannedRequest {
  kind: 'generation';
}

/** A request as the API accepted it. */
export type Submitted<P extends PlannedRequest> = P & {
  id: string;
  /** The status in the creation answer; terminal for a sync job that finished in time. */
  answeredStatus: string;
};

export type SubmittedGeneration = Submitted<PlannedGeneration>;

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return {};
  }
}

/** `count` requests, round robin over the eight modalities; `#slow` spread so completions overlap every fault. */
export function planWorkload(count: number, imageUrl: string): PlannedGeneration[] {
  return Array.from({ length: count }, (_, i) => {
    const fails = i % 7 === 3;
    const cancel = i % 6 === 1;
    const sync = [0, 1, 2].includes(i % 8);
    // Sync: 0 to 40 s (answers 202 past SYNC_TIMEOUT_MS); async: 8 to 80 s.
    const slowMs = sync ? ((i * 31) % 41) * 1_000 : 8_000 + ((i * 37) % 73) * 1_000;
    const text = `chaos ${i}${fails ? ' #fail' : ''} #slow:${slowMs}`;
    const plans: [string, string, Record<string, unknown>][] = [
      ['/v1/images', 'image', { model: 'flux-schnell', prompt: text }],
      ['/v1/voice', 'voice', { model: 'openai-tts-1', text }],
      ['/v1/chat', 'chat', { model: 'gpt-5-mini', messages: [{ content: text }], max_tokens: 200 }],
      ['/v1/videos', 'video', { model: 'hailuo-02', prompt: text, duration_s: 6 }],
      ['/v1/music', 'music', { model: 'minimax-music-v2', prompt: text, duration_s: 15 }],
      ['/v1/avatars', 'avatar', { model: 'veed-avatars', text }],
      ['/v1/three-d', '3d', { model: 'tripo-v2.5-text', prompt: text, mesh_complexity: 'low' }],
      // Upscale has no prompt, so no directives: it takes the worker's SIMULATOR_ASYNC_LATENCY_MS.
      ['/v1/upscale', 'upscale', { model: 'real-esrgan', image_url: imageUrl, scale_factor: '2' }],
    ];
    const [route, modality, body] = plans[i % 8]!;
    return { kind: 'generation', route, modality, body, fails: fails && modality !== 'upscale', cancel };
  });
}

/** Sends every planned request, `concurrency` at a time; answers other than 200/202 are returned as rejections. */
export async function submitWorkload<P extends PlannedRequest>(apiUrl: string, key: string, planned: P[], concurrency: number) {
  const submitted: Submitted<P>[] = [];
  const rejected: string[] = [];
  const queue = [...planned];
  const lane = async () => {
    for (let plan = queue.shift(); plan; plan = queue.shift()) {
      try {
        const res = await requestJson('POST', `${apiUrl}${plan.route}`, { Authorization: `Bearer ${key}` }, plan.body, { timeoutMs: REQUEST_TIMEOUT_MS });
        const body = parseJson(res.body) as { id?: string; status?: string };
        if ((res.status === 200 || res.status === 202) && body.id && body.status) submitted.push({ ...plan, id: body.id, answeredStatus: body.status });
        else rejected.push(`POST ${plan.route} answered ${res.status}: ${res.body.slice(0, 300)}`);
      } catch (err) {
        rejected.push(`POST ${plan.route}: ${(err as Error).message}`);
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
  return { submitted, rejected };
}

/** What a cancel is sent to: POST /v1/<resource>/{id}/cancel. */
export type CancelResource = 'generations' | 'comparisons';

export interface CancelResult {
  id: string;
  /** The first answer that was not a 5xx or a failure: 200 canceled, 409 not cancelable, 202 not landed yet. */
  finalStatus: number;
  finalGenerationStatus?: string;
  attempts: ProbeOutcome[];
}

/**
 * Whether an attempt before a cancel's last may have reached the workflow though its answer was lost:
 * a 5xx, or no answer at all (an API killed after sending the cancel on, before answering).
 */
export const earlierAttemptMayHaveLanded = (cancel: CancelResult) => cancel.attempts.slice(0, -1).some((a) => a.status >= 500 || a.failure !== undefined);

/** POST …/cancel, retried while the answer is a 5xx or no answer, for at most `deadlineMs`. */
export async function cancelWithRetry(apiUrl: string, key: string, id: string, deadlineMs: number, resource: CancelResource = 'generations'): Promise<CancelResult> {
  const probe = cancelProbe(resource);
  const attempts: ProbeOutcome[] = [];
  const giveUpAt = Date.now() + deadlineMs;
  for (;;) {
    const startedAt = Date.now();
    try {
      const res = await requestJson('POST', `${apiUrl}/v1/${resource}/${id}/cancel`, { Authorization: `Bearer ${key}` }, undefined, { timeoutMs: REQUEST_TIMEOUT_MS });
      const body = parseJson(res.body) as { status?: string; error?: { code?: string } };
      const detail = res.status >= 500 ? res.body.slice(0, 300) : undefined;
      attempts.push({ probe, startedAt, ms: Date.now() - startedAt, status: res.status, code: body.error?.code, id, detail });
      if (res.status < 500) return { id, finalStatus: res.status, finalGenerationStatus: body.status, attempts };
    } catch (err) {
      const failure = err instanceof RequestTimeoutError ? 'hang' : 'connection';
      attempts.push({ probe, startedAt, ms: Date.now() - startedAt, status: 0, failure, detail: (err as Error).message, id });
    }
    if (Date.now() > giveUpAt) return { id, finalStatus: 0, attempts };
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
}

/** The probe name a cancel's answers are grouped under: `cancel` (a generation's) or `cancel comparison`. */
export const cancelProbe = (resource: CancelResource) => (resource === 'generations' ? 'cancel' : 'cancel comparison');

/** Cancels `ids` one every `everyMs` in the background; resolves with every result. */
export async function cancelSpread(
  apiUrl: string,
  key: string,
  ids: string[],
  everyMs: number,
  deadlineMs: number,
  resource: CancelResource = 'generations',
): Promise<CancelResult[]> {
  const pending: Promise<CancelResult>[] = [];
  for (const id of ids) {
    pending.push(cancelWithRetry(apiUrl, key, id, deadlineMs, resource));
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
  return Promise.all(pending);
}
