import { randomBytes } from 'node:crypto';
import { kindOf, outputCount, renderOutput, type OutputFile } from './replicate-media';

// The fake Replicate's predictions: created `starting`, `processing` halfway through their latency,
// then `succeeded` with file URLs it serves (or `failed`, or `canceled` by a cancel), as the
// predictions API documents them. A prediction can be told how to end (see PredictionScript).

export type PredictionStatus = 'starting' | 'processing' | 'succeeded' | 'failed' | 'canceled';

/** How one prediction ends, when a test says so; by default it succeeds after the fake's latency. */
export interface PredictionScript {
  latencyMs?: number;
  /** Ends `failed` with this `error`. */
  fails?: string;
  /**
   * Succeeds with an output that holds no file (`malformed`), no output at all (`missing`), or its
   * file inline as a data: URL (`inline`, the optimization Replicate has made for sync answers).
   */
  output?: 'malformed' | 'missing' | 'inline';
  /** Succeeds with one output file of this many bytes, streamed when fetched (or inline, with `output: 'inline'`). */
  hugeBytes?: number;
}

export interface FakePrediction {
  id: string;
  model: string;
  version: string;
  input: Record<string, unknown>;
  status: PredictionStatus;
  output: unknown;
  error: string | null;
  logs: string;
  created_at: string;
  started_at: string | null;
  completed_at: string | null;
  webhook?: string;
  webhook_events_filter?: string[];
  urls: { get: string; cancel: string };
}

export interface WebhookCall {
  url: string;
  status: PredictionStatus;
  delivered: boolean;
}

const ENDED: ReadonlySet<PredictionStatus> = new Set(['succeeded', 'failed', 'canceled']);

export function createPredictionStore(opts: { origin: () => string; latencyMs: () => number }) {
  const predictions = new Map<string, FakePrediction>();
  const ended = new Map<string, Promise<void>>();
  const finishers = new Map<string, () => void>();
  const files = new Map<string, OutputFile | { hugeBytes: number }>();
  const webhooks: WebhookCall[] = [];
  const timers = new Set<NodeJS.Timeout>();

  const later = (ms: number, run: () => void) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      run();
    }, ms);
    timers.add(timer);
  };

  function end(prediction: FakePrediction, status: PredictionStatus, fields: Partial<FakePrediction> = {}): void {
    if (ENDED.has(prediction.status)) return;
    Object.assign(prediction, fields, { status, completed_at: new Date().toISOString() });
    finishers.get(prediction.id)?.();
    const filter = prediction.webhook_events_filter;
    if (prediction.webhook && (!filter || filter.includes('completed'))) void callWebhook(prediction);
  }

  async function callWebhook(prediction: FakePrediction): Promise<void> {
    const call: WebhookCall = { url: prediction.webhook!, status: prediction.status, delivered: false };
    webhooks.push(call);
    try {
      const answer = await fetch(call.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(prediction),
        signal: AbortSignal.timeout(5_000),
      });
      call.delivered = answer.ok;
    } catch {
      // Replicate retries a few times; the fake gives up, and the adapter's polling still finds the result.
    }
  }

  async function run(prediction: FakePrediction, model: string | undefined, script: PredictionScript): Promise<void> {
    if (script.fails !== undefined) return end(prediction, 'failed', { error: script.fails, logs: script.fails });
    if (script.output === 'missing') return end(prediction, 'succeeded', { output: null });
    if (script.output === 'malformed') return end(prediction, 'succeeded', { output: { message: 'done', score: 0.97 } });
    if (script.hugeBytes !== undefined && script.output === 'inline') {
      const file = await renderOutput(kindOf(model, prediction.input), prediction.input, prediction.id);
      const padded = Buffer.concat([file.data, Buffer.alloc(Math.max(0, script.hugeBytes - file.data.length))]);
      return end(prediction, 'succeeded', { output: `data:${file.mime};base64,${padded.toString('base64')}` });
    }
    if (script.hugeBytes !== undefined) {
      const path = `/files/${prediction.id}/out-0.png`;
      files.set(path, { hugeBytes: script.hugeBytes });
      return end(prediction, 'succeeded', { output: `${opts.origin()}${path}` });
    }
    const kind = kindOf(model, prediction.input);
    const { count, list } = outputCount(prediction.input);
    if (script.output === 'inline') {
      const file = await renderOutput(kind, prediction.input, prediction.id);
      return end(prediction, 'succeeded', { output: `data:${file.mime};base64,${file.data.toString('base64')}` });
    }
    try {
      const urls: string[] = [];
      for (let i = 0; i < count; i++) {
        const file = await renderOutput(kind, prediction.input, `${prediction.id}:${i}`);
        const path = `/files/${prediction.id}/out-${i}.${file.extension}`;
        files.set(path, file);
        urls.push(`${opts.origin()}${path}`);
      }
      end(prediction, 'succeeded', { output: list ? urls : urls[0] });
    } catch (err) {
      end(prediction, 'failed', { error: (err as Error).message });
    }
  }

  return {
    predictions,
    webhooks,

    create(
      fields: { model?: string; version?: string; input: Record<string, unknown>; webhook?: string; webhook_events_filter?: string[] },
      script: PredictionScript,
    ): FakePrediction {
      const id = randomBytes(13).toString('hex').slice(0, 26);
      const prediction: FakePrediction = {
        id,
        model: fields.model ?? 'community/model',
        version: fields.version ?? 'hidden',
        input: fields.input,
        status: 'starting',
        output: null,
        error: null,
        logs: '',
        created_at: new Date().toISOString(),
        started_at: null,
        completed_at: null,
        ...(fields.webhook && { webhook: fields.webhook }),
        ...(fields.webhook_events_filter && { webhook_events_filter: fields.webhook_events_filter }),
        urls: { get: `${opts.origin()}/v1/predictions/${id}`, cancel: `${opts.origin()}/v1/predictions/${id}/cancel` },
      };
      predictions.set(id, prediction);
      ended.set(id, new Promise<void>((resolve) => finishers.set(id, resolve)));
      const latencyMs = script.latencyMs ?? opts.latencyMs();
      later(latencyMs / 2, () => {
        if (prediction.status === 'starting') Object.assign(prediction, { status: 'processing', started_at: new Date().toISOString() });
      });
      later(latencyMs, () => {
        if (!ENDED.has(prediction.status)) void run(prediction, fields.model, script);
      });
      return prediction;
    },

    /** Resolves when the prediction ends, or after `ms`, whichever comes first (`Prefer: wait`). */
    async waitForEnd(prediction: FakePrediction, ms: number): Promise<void> {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([ended.get(prediction.id), new Promise((resolve) => (timer = setTimeout(resolve, ms)))]);
      clearTimeout(timer);
    },

    cancel(prediction: FakePrediction): void {
      end(prediction, 'canceled');
    },

    file(path: string): OutputFile | { hugeBytes: number } | undefined {
      return files.get(path);
    },

    close(): void {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      for (const finish of finishers.values()) finish();
    },
  };
}
