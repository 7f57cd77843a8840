import type Replicate from 'replicate';
import type { Prediction } from 'replicate';
import type { Modality } from '../../domain/modalities';
import { OUTPUT_SIZE_CAPS } from '../../domain/output-limits';
import { inlineAnswerCap } from './capped-answers';
import { badOutput, jobFailed, NOT_CANCELLED, PROVIDER_ERROR_CODES, requestSignal } from './http-failure';
import { answerOf, REPLICATE, replicateClient, replicateFailure } from './replicate-client';
import { planPredictions } from './replicate-inputs';
import { filesOfOutput } from './replicate-outputs';
import { ProviderError, type AdapterOptions, type PollResult, type ProviderAdapter, type ProviderContext, type ProviderJob } from './types';

// Replicate's predictions API through its official SDK (decisions §7): create a prediction, get
// it until it is done, cancel it. Short jobs (image, upscale) ask Replicate to hold the request
// open until the prediction is done (`Prefer: wait`), so they usually finish in `submit`; video
// is queued and polled. A job that needs several predictions (a model that makes one image per
// run, asked for several) has their ids, comma-separated, as its job id.

/** Replicate holds a `Prefer: wait` request open for at most 60 s. */
const MAX_WAIT_S = 60;
/** Time kept, within the request timeout, for Replicate to answer once its wait is over. */
const WAIT_MARGIN_MS = 2_000;
/** The modalities that finish within a wait; the rest are queued at once. */
const WAITED_MODALITIES: ReadonlySet<Modality> = new Set(['image', 'upscale']);
const POLL_AFTER_MS = { waited: 500, queued: 2_000 };

const RUNNING = new Set(['starting', 'processing']);
const ENDED_WITHOUT_OUTPUT = new Set(['failed', 'canceled', 'aborted']);

export function createReplicateAdapter(opts: AdapterOptions): ProviderAdapter {
  const waitS = Math.min(MAX_WAIT_S, Math.floor((opts.requestTimeoutMs - WAIT_MARGIN_MS) / 1000));

  /**
   * One SDK call: bounded by the request timeout, and stopped by a cancelled activity
   * unless `cancellable` is false.
   */
  async function call<T>(ctx: ProviderContext, request: (signal: AbortSignal) => Promise<T>, cancellable = true): Promise<T> {
    const cancelled = cancellable ? ctx.signal : NOT_CANCELLED;
    try {
      return await request(requestSignal(cancelled, opts.requestTimeoutMs));
    } catch (err) {
      throw replicateFailure(err, cancelled);
    }
  }

  /** Cancels a prediction nobody will wait for, best effort and in the background. */
  const stop =
    (client: Replicate) =>
    (id: string): void =>
      void stopQuietly(() => client.predictions.cancel(id, { signal: AbortSignal.timeout(opts.requestTimeoutMs) }));

  return {
    name: REPLICATE,

    async submit(job, ctx) {
      const plan = await planPredictions(job, ctx);
      const client = replicateClient(job.credentials, answerCapBytes(job, ctx.outputCapBytes));
      const waited = WAITED_MODALITIES.has(job.model.modality);
      const wait = waited && waitS >= 1 ? { wait: waitS } : {};
      // A poll hint only: Replicate calls webhooks over HTTPS, and polling finds the result anyway.
      const webhook = job.callbackUrl?.startsWith('https://') ? { webhook: job.callbackUrl, webhook_events_filter: ['completed' as const] } : {};
      // A cancel does not cut a creation short (even one held open by `Prefer: wait`): Replicate runs
      // the prediction anyway, and only its id lets it be cancelled (activities/submission.ts).
      const created = await Promise.allSettled(
        plan.inputs.map((input) => call(ctx, (signal) => client.predictions.create({ ...plan.target, input, ...wait, ...webhook, signal }), false)),
      );
      const refused = created.find((outcome) => outcome.status === 'rejected');
      if (refused) {
        // The submission as a whole is retried or falls back: stop the predictions that did start.
        for (const outcome of created) if (outcome.status === 'fulfilled') stop(client)(outcome.value.id);
        throw refused.reason;
      }
      const predictions = created.map((outcome) => (outcome as PromiseFulfilledResult<Prediction>).value);
      const status = settleOrStop(predictions, pollAfterMs(job), stop(client));
      return status.state === 'done' ? status : { state: 'pending', providerJobId: predictions.map((p) => p.id).join(','), pollAfterMs: pollAfterMs(job) };
    },

    async poll(job, providerJobId, ctx) {
      const client = replicateClient(job.credentials, answerCapBytes(job, ctx.outputCapBytes));
      const predictions = await Promise.all(predictionIds(providerJobId).map((id) => call(ctx, (signal) => client.predictions.get(id, { signal }))));
      return settleOrStop(predictions, pollAfterMs(job), stop(client));
    },

    async cancel(job, providerJobId) {
      // A cancel's answer is the prediction too; it is read under the modality's default cap.
      const client = replicateClient(job.credentials, answerCapBytes(job, OUTPUT_SIZE_CAPS[job.model.modality]));
      // Cancelling has no activity signal of its own: only the request timeout bounds it.
      await Promise.all(
        predictionIds(providerJobId).map(async (id) => {
          try {
            await client.predictions.cancel(id, { signal: AbortSignal.timeout(opts.requestTimeoutMs) });
          } catch (err) {
            // A prediction Replicate no longer knows has nothing left to stop.
            if (answerOf(err)?.status === 404) return;
            throw replicateFailure(err, NOT_CANCELLED);
          }
        }),
      );
    },
  };
}

/** A prediction's answer holds at most the outputs asked for, each possibly inline. */
function answerCapBytes(job: ProviderJob, outputCapBytes: number): number {
  return inlineAnswerCap(outputCapBytes, typeof job.params.num_outputs === 'number' ? job.params.num_outputs : 1);
}

/** Short jobs are looked at again soon; a video takes minutes. */
function pollAfterMs(job: ProviderJob): number {
  return WAITED_MODALITIES.has(job.model.modality) ? POLL_AFTER_MS.waited : POLL_AFTER_MS.queued;
}

function predictionIds(providerJobId: string): string[] {
  const ids = providerJobId.split(',').filter(Boolean);
  if (ids.length === 0) throw new ProviderError(PROVIDER_ERROR_CODES.error, `"${providerJobId}" is not a Replicate job id.`, false, { source: 'gateway' });
  return ids;
}

/** Like `settle`; when the job has failed, its predictions still running are stopped. */
function settleOrStop(predictions: Prediction[], pollAfterMs: number, stop: (id: string) => void): PollResult {
  try {
    return settle(predictions, pollAfterMs);
  } catch (err) {
    for (const prediction of predictions) if (RUNNING.has(prediction?.status)) stop(prediction.id);
    throw err;
  }
}

/** Done when every prediction succeeded; failed when any ended without output; else pending. */
function settle(predictions: Prediction[], pollAfterMs: number): PollResult {
  for (const prediction of predictions) {
    if (!prediction || typeof prediction.id !== 'string' || typeof prediction.status !== 'string') {
      throw badOutput(REPLICATE, 'its answer is not a prediction');
    }
    if (ENDED_WITHOUT_OUTPUT.has(prediction.status)) throw jobFailed(REPLICATE, endedWhy(prediction));
    if (prediction.status !== 'succeeded' && !RUNNING.has(prediction.status)) {
      throw badOutput(REPLICATE, `prediction ${prediction.id} has the unknown status "${prediction.status}"`);
    }
  }
  if (predictions.some((prediction) => RUNNING.has(prediction.status))) return { state: 'pending', pollAfterMs };
  return { state: 'done', result: { files: predictions.flatMap((prediction) => filesOfOutput(prediction.output)) } };
}

function endedWhy(prediction: Prediction): string {
  if (prediction.status !== 'failed') return `prediction ${prediction.id} was ${prediction.status}`;
  const error = prediction.error;
  if (typeof error === 'string' && error) return error;
  return error ? JSON.stringify(error) : `prediction ${prediction.id} failed without a reason`;
}

async function stopQuietly(cancel: () => Promise<unknown>): Promise<void> {
  try {
    await cancel();
  } catch {
    // Best effort: an orphaned prediction costs one run, and nothing waits for it.
  }
}
