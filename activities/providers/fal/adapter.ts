import type { QueueStatus } from '@fal-ai/client';
import { badOutput, failureFromNetwork, failureFromStatus, jobFailed, NOT_CANCELLED, requestSignal } from '../http-failure';
import type { AdapterOptions, PollResult, ProviderAdapter, ProviderError } from '../types';
import { falQueue, FalHttpFailure, FalTransportFailure } from './client';
import { falRequest } from './inputs';
import { outputFiles } from './outputs';

// fal.ai through its queue (decisions §7), with the official SDK: submit returns fal's request id,
// polls read the request's status and, once COMPLETED, its result; cancel asks fal to drop it.
// fal's webhook (`fal_webhook`, our callback URL) only tells the workflow to poll now: the result
// is always read from the queue, never taken from a webhook body.

const PROVIDER = 'fal';

/** fal gives no estimate; a finished image is usually a second away, a video longer (polls cap at 5 s). */
const POLL_HINT_MS = 1_000;
/** One more second per request ahead in the queue, up to this. */
const MAX_QUEUED_POLL_HINT_MS = 5_000;

/** Fields of a status answer the SDK's types leave out: a failed request is COMPLETED with an error. */
interface StatusDetails {
  queue_position?: unknown;
  error?: unknown;
  error_type?: unknown;
}

export function createFalAdapter(opts: AdapterOptions): ProviderAdapter {
  /** One SDK call under the request timeout and the activity's cancellation, its failure classified. */
  async function call<T>(cancelled: AbortSignal, request: (signal: AbortSignal) => Promise<T>, onFailure = classify): Promise<T> {
    try {
      return await request(requestSignal(cancelled, opts.requestTimeoutMs));
    } catch (err) {
      throw onFailure(err, cancelled);
    }
  }

  return {
    name: PROVIDER,

    async submit(job, ctx) {
      const { endpointId, input } = await falRequest(job, ctx);
      const queue = falQueue(job.credentials);
      // A cancel does not cut the submission short: fal may have queued the job already, and only its
      // request id lets it be cancelled (activities/submission.ts). The request timeout bounds it.
      const queued = await call(NOT_CANCELLED, (abortSignal) => queue.submit(endpointId, { input, abortSignal, ...(job.callbackUrl && { webhookUrl: job.callbackUrl }) }));
      const requestId = (queued as { request_id?: unknown } | undefined)?.request_id;
      if (typeof requestId !== 'string' || !requestId) throw badOutput(PROVIDER, 'the queue accepted the request without a request_id');
      // The request id alone finds the request again (with the job's route): any worker can poll it.
      return { state: 'pending', providerJobId: requestId, pollAfterMs: POLL_HINT_MS };
    },

    async poll(job, requestId, ctx) {
      const queue = falQueue(job.credentials);
      const endpointId = job.route.model;
      const status = await call(ctx.signal, (abortSignal) => queue.status(endpointId, { requestId, logs: false, abortSignal }));
      const details = status as QueueStatus & StatusDetails;
      const state: string | undefined = status?.status;
      switch (state) {
        case 'IN_QUEUE':
          return pending(details.queue_position);
        case 'IN_PROGRESS':
          return { state: 'pending', pollAfterMs: POLL_HINT_MS };
        case 'COMPLETED': {
          if (details.error !== undefined && details.error !== null) throw failedRequest(String(details.error), details.error_type);
          const result = await call(ctx.signal, (abortSignal) => queue.result(endpointId, { requestId, abortSignal }), classifyResultFailure);
          return { state: 'done', result: { files: outputFiles(job, result.data) } };
        }
        default:
          throw badOutput(PROVIDER, `the queue reports an unknown status ${JSON.stringify(state)}`);
      }
    },

    async cancel(job, requestId) {
      const queue = falQueue(job.credentials);
      try {
        await queue.cancel(job.route.model, { requestId, abortSignal: AbortSignal.timeout(opts.requestTimeoutMs) });
      } catch (err) {
        // 400 ALREADY_COMPLETED, 404 NOT_FOUND: nothing left to stop.
        if (err instanceof FalHttpFailure && (err.status === 400 || err.status === 404)) return;
        throw classify(err, NOT_CANCELLED);
      }
    },
  };
}

function pending(queuePosition: unknown): PollResult {
  const ahead = typeof queuePosition === 'number' && queuePosition > 0 ? queuePosition : 0;
  return { state: 'pending', pollAfterMs: Math.min(POLL_HINT_MS * (1 + ahead), MAX_QUEUED_POLL_HINT_MS) };
}

/** A request fal ran and failed: not retried on this route, whatever the failure was. */
function failedRequest(detail: string, errorType: unknown): ProviderError {
  return jobFailed(PROVIDER, typeof errorType === 'string' && !detail.includes(errorType) ? `${errorType}: ${detail}` : detail);
}

function classify(err: unknown, cancelled: AbortSignal): unknown {
  if (err instanceof FalHttpFailure) return failureFromStatus(PROVIDER, err.status, err.detail, err.retryAfter);
  if (err instanceof FalTransportFailure) return failureFromNetwork(PROVIDER, err.failure, cancelled);
  // A 2xx answer the SDK could not parse as the JSON it announced.
  if (err instanceof SyntaxError) return badOutput(PROVIDER, 'the answer is not valid JSON');
  return failureFromNetwork(PROVIDER, err, cancelled);
}

/**
 * fal's result endpoint repeats the model's own error when the model failed. A 4xx there is a
 * refusal (validation, content policy), a 5xx carrying fal's error type a failed request; auth,
 * rate limits and a bare 5xx (no error type: a proxy in the way) are about this read itself.
 */
function classifyResultFailure(err: unknown, cancelled: AbortSignal): unknown {
  if (err instanceof FalHttpFailure && err.status >= 500 && err.errorType) return failedRequest(err.detail, err.errorType);
  return classify(err, cancelled);
}
