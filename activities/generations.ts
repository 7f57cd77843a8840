import { setTimeout as sleep } from 'node:timers/promises';
import { ApplicationFailure, CancelledFailure, Context } from '@temporalio/activity';
import { TemporalFailure, type Logger } from '@temporalio/common';
import type { Repos } from '../db/repos';
import type { GenerationRow, ProviderAttempt } from '../db/repos/generations';
import { findModel } from '../domain/catalog';
import type { Modality } from '../domain/modalities';
import { MODALITY_MODE } from '../domain/modalities';
import { OUTPUT_SIZE_CAPS } from '../domain/output-limits';
import { storableProviderText } from '../domain/text-input';
import { CALLBACK_EXPIRY_MARGIN_MS } from '../domain/callback-token';
import { newId } from '../lib/ids';
import { describeError } from '../lib/logger';
import type { Storage } from '../storage/types';
import type { GeneratedFile, GenerationInput, ProviderOutcome, Submission } from '../workflows/definitions';
import { badOutput } from './providers/http-failure';
import { ingestProviderFile } from './providers/ingest-output';
import { refusedPlatformKey } from './providers/platform-key';
import { beatFromAThirdOfTheTimeout } from './heartbeats';
import { recordSubmittedJob, submitUnlessCancelled } from './submission';
import type { ProviderRegistry } from './providers/registry';
import type { PollHints, PollHintWatch } from './poll-hints';
import { ProviderError, type ProviderAdapter, type ProviderContext, type ProviderJob, type ProviderResult, type ProviderUsage } from './providers/types';

export const PROVIDER_ERROR_TYPE = 'ProviderError';
/**
 * A provider failure a retry may cure (rate limited, 5xx, timeout), or another route may (a refused
 * platform key, sent non-retryable): not in nonRetryableErrorTypes, and the workflow falls back on it.
 */
export const PROVIDER_TRANSIENT_ERROR_TYPE = 'ProviderTransientError';

/** Longest wait between two polls of a provider job, whatever the provider suggests. */
const MAX_POLL_INTERVAL_MS = 5_000;
const DEFAULT_POLL_INTERVAL_MS = 1_000;
/** A job polled this long waits at least this fraction of its age before the next poll. */
const POLL_BACKOFF_FRACTION = 1 / 4;

/**
 * The provider's hint (or a second), stretched as the job ages, up to MAX_POLL_INTERVAL_MS: a
 * minute-long video is asked about every few seconds, not every second, while a job that is done
 * in two seconds is still seen at once. A provider's callback wakes the poll sooner
 * (activities/poll-hints.ts); the cap stays short all the same, for a provider that cannot reach
 * PUBLIC_BASE_URL or a callback that is lost.
 */
export function nextPollInMs(hintMs: number | undefined, ageMs: number): number {
  const hinted = Math.max(10, hintMs ?? DEFAULT_POLL_INTERVAL_MS);
  return Math.min(MAX_POLL_INTERVAL_MS, Math.max(hinted, Math.round(ageMs * POLL_BACKOFF_FRACTION)));
}
/** How long fetching one provider output may take (a large video over a slow CDN). */
const OUTPUT_FETCH_TIMEOUT_MS = 10 * 60_000;

// The provider steps of a generation. Sync modalities run `runProvider` as one local activity,
// async ones `runProviderJob`, a heartbeating activity (workflows from before it run
// `submitToProvider`, then `awaitProviderJob`). Both submit, record a job the provider queued on
// the row, and poll it until done: a step that runs again (its worker died, a poll failed) resumes
// that job instead of paying for a second, and a fallback or a settlement cancels it from the row
// (`cancelRecordedProviderJob`). Files go to storage inside the step that produced them; only their
// rows travel through Temporal.
//
// Each step runs on one route (`routeIndex` into input.routes); the workflow moves to the next
// route when one keeps failing with retryable errors. Every provider call that ends is appended to
// the generation's `attempts` (its provenance).

export function createGenerationActivities(deps: {
  repos: Repos;
  storage: Storage;
  providers: ProviderRegistry;
  /** The signed callback URL of a generation, when the API can receive callbacks. */
  callbackUrlFor?: (generationId: string, expiresAt: Date) => string;
  /** The callbacks' hints, which cut a poll's wait short; without them polls keep their schedule. */
  pollHints?: PollHints;
  /** Per-modality output caps, in bytes; domain/output-limits.ts without them. */
  outputCapsBytes?: Partial<Record<Modality, number>>;
  /** ALLOW_PRIVATE_INPUT_URLS: output URLs on private addresses (tests, development). */
  allowPrivateOutputUrls?: boolean;
  /** How long fetching one output file may take. */
  outputFetchTimeoutMs?: number;
  /** How long recording a submitted job waits out a database outage (RECORD_JOB_PATIENCE_MS without it). */
  recordJobPatienceMs?: number;
}) {
  const { repos, storage, providers } = deps;

  async function jobOf(input: GenerationInput, routeIndex: number | undefined): Promise<{ job: ProviderJob; adapter: ProviderAdapter }> {
    const model = findModel(input.model);
    if (!model) {
      throw ApplicationFailure.nonRetryable(`model ${input.model} left the catalog`, PROVIDER_ERROR_TYPE, { code: 'unknown_model', source: 'gateway' });
    }
    const route = input.routes?.[routeIndex ?? 0] ?? providers.defaultRoute(model, input.environment);
    const job: ProviderJob = {
      generationId: input.generationId,
      model,
      prompt: input.prompt,
      params: input.params,
      inputs: input.inputs ?? {},
      // One submission per generation and route, however often the step runs: a provider that
      // honours the key answers a repeat with the job it already has.
      idempotencyKey: providerIdempotencyKey(input.generationId, routeIndex),
      // The URL expires with the job: its own async deadline, plus a margin for a late callback.
      // Async jobs only: a sync job runs inside its workflow's one task, and a callback signal
      // landing during that task would fail it (and the caller's Update-with-Start) after the job
      // already succeeded and was charged.
      ...(deps.callbackUrlFor && MODALITY_MODE[input.modality] === 'async' && { callbackUrl: deps.callbackUrlFor(input.generationId, callbackExpiry(input)) }),
      route,
      credentials: await providers.credentialsFor(route, input.organizationId),
    };
    return { job, adapter: providers.adapterFor(route) };
  }

  /**
   * Runs one provider step in its context. Its heartbeats beat from a timer through the whole step
   * (activities/heartbeats.ts): the submission and the files' download included, however long one
   * provider call takes, so no adapter keeps a heartbeat timer of its own.
   */
  async function withProviderContext<T>(job: ProviderJob, step: (ctx: ProviderContext) => Promise<T>): Promise<T> {
    const stopBeating = beatFromAThirdOfTheTimeout(Context.current());
    try {
      return await step(contextOf(job));
    } finally {
      stopBeating();
    }
  }

  function contextOf(job: ProviderJob): ProviderContext {
    const ctx = Context.current();
    const stored = (name: string) => {
      const input = job.inputs[name];
      if (!input) throw new ProviderError('invalid_input', `This generation has no ${name} input.`, false, { source: 'gateway' });
      return input;
    };
    return {
      signal: ctx.cancellationSignal,
      async readInput(name) {
        const data = await storage.read(stored(name).storageKey);
        if (!data) throw new ProviderError('invalid_input', `The ${name} input of this generation is missing from storage.`, false, { source: 'gateway' });
        return data;
      },
      inputUrl: async (name) => storage.signedGetUrl(stored(name).storageKey),
      outputCapBytes: outputCapOf(job.model.modality),
    };
  }

  function outputCapOf(modality: Modality): number {
    return deps.outputCapsBytes?.[modality] ?? OUTPUT_SIZE_CAPS[modality];
  }

  /** The provider's files into storage (real providers' through the checks of ingest-output.ts). */
  async function store(input: GenerationInput, job: ProviderJob, result: ProviderResult): Promise<ProviderOutcome> {
    const outputs: GeneratedFile[] = [];
    const signal = Context.current().cancellationSignal;
    for (const [position, file] of result.files.entries()) {
      const keyBase = `outputs/${input.generationId}/${position}`;
      if ('kind' in file) {
        const ingested = await ingestProviderFile(file, {
          provider: job.route.provider,
          modality: input.modality,
          capBytes: outputCapOf(input.modality),
          storage,
          keyBase,
          signal,
          timeoutMs: deps.outputFetchTimeoutMs ?? OUTPUT_FETCH_TIMEOUT_MS,
          ...(job.credentials.baseUrl && { trustedOrigin: new URL(job.credentials.baseUrl).origin }),
          ...(deps.allowPrivateOutputUrls && { allowPrivateAddresses: true }),
        });
        outputs.push({ id: newId('out'), position, ...ingested });
        continue;
      }
      const storageKey = `${keyBase}.${file.extension}`;
      await storage.put(storageKey, file.data, file.mime);
      outputs.push({
        id: newId('out'),
        position,
        storageKey,
        mime: file.mime,
        ...(file.width !== undefined && { width: file.width }),
        ...(file.height !== undefined && { height: file.height }),
        ...(file.durationS !== undefined && { durationS: file.durationS }),
      });
    }
    if (input.modality === 'chat' && result.text === undefined) throw badOutput(job.route.provider, 'a chat answer has no text');
    // Decisions §5: a provider's text may hold a U+0000 (or a lone surrogate), which no column
    // stores; made storable here, before anything is stored, so a job the provider was paid for
    // can never fail on its insert and be refunded.
    const text = result.text === undefined ? undefined : storableProviderText(result.text);
    const usage = input.modality === 'chat' ? chatUsage({ ...result, text }) : result.usage;
    return {
      outputs,
      ...(text !== undefined && { text }),
      ...(usage && { usage }),
      served: job.route,
    };
  }

  /**
   * Polls a queued job until it is done. A job just submitted is first asked about after the wait its
   * provider suggested with the submission (asked at once, it is still queued); a job resumed from
   * the row is asked at once, as it may have finished long ago. A callback cuts any wait short.
   */
  async function pollUntilDone(
    adapter: ProviderAdapter,
    job: ProviderJob,
    queued: { providerJobId: string; pollAfterMs?: number },
    ctx: ProviderContext,
    watch?: PollHintWatch,
  ): Promise<ProviderResult> {
    const startedAt = Date.now();
    const hints = watch ?? deps.pollHints?.watch(job.generationId);
    const wait = (ms: number) => (hints ? hints.sleep(ms, ctx.signal) : sleep(ms, undefined, { signal: ctx.signal }));
    try {
      if (queued.pollAfterMs !== undefined) await wait(nextPollInMs(queued.pollAfterMs, 0));
      for (;;) {
        const status = await adapter.poll(job, queued.providerJobId, ctx);
        if (status.state === 'done') return status.result;
        await wait(nextPollInMs(status.pollAfterMs, Date.now() - startedAt));
      }
    } finally {
      if (!watch) hints?.close();
    }
  }

  /**
   * Runs one provider call and adds it to the generation's `attempts` once it ends: succeeded, or
   * failed with its code. A cancelled call (the workflow moved on) is not ended here: the settlement
   * that follows ends the call it finds open on the row with the generation's outcome.
   */
  async function recorded<T>(
    input: GenerationInput,
    job: ProviderJob,
    startedAt: number,
    fn: () => Promise<T>,
    opts: {
      /** Whether a result ends the attempt (a queued job's does not). */
      ends?: (result: T) => boolean;
      /** A queued job's poll: a try the step's timeout stops leaves the job to the next try, which resumes it. */
      resumable?: boolean;
    } = {},
  ): Promise<T> {
    const attempt = (outcome: ProviderAttempt['outcome'], errorCode?: string): ProviderAttempt => ({
      provider: job.route.provider,
      model: job.route.model,
      outcome,
      ...(errorCode && { error_code: errorCode }),
      duration_ms: Math.max(0, Date.now() - startedAt),
    });
    try {
      const result = await fn();
      if (opts.ends?.(result) ?? true) await repos.generations.recordAttempt(input.generationId, attempt('succeeded'));
      return result;
    } catch (err) {
      const { aborted, reason } = Context.current().cancellationSignal;
      if (!aborted) {
        await repos.generations.recordAttempt(input.generationId, attempt('failed', err instanceof ProviderError ? err.code : 'internal_error'));
      } else if (!opts.resumable && reason instanceof CancelledFailure && reason.message === 'TIMED_OUT') {
        // The step's own timeout ended this call (its next try makes another). Any other cancel is
        // the generation's: its settlement records the call with the generation's outcome.
        await repos.generations.recordAttempt(input.generationId, attempt('failed', 'provider_timeout'));
      }
      throw err;
    }
  }

  /**
   * Submits the job on its route and records the provider's job id on the row, or stores the files
   * of a provider that answered at once. A queued job's attempt ends when its poll does. A job whose
   * route the generation closed while it was being submitted (a cancel the activity had not heard
   * of yet, a settlement) is known to nobody else: it is cancelled here.
   */
  async function submit(
    input: GenerationInput,
    job: ProviderJob,
    adapter: ProviderAdapter,
    ctx: ProviderContext,
    routeIndex: number | undefined,
  ): Promise<{ state: 'done'; outcome: ProviderOutcome } | { state: 'pending'; providerJobId: string; submittedAt: number; pollAfterMs?: number }> {
    const submittedAt = Date.now();
    // Taken now: a late answer's cancel runs outside this activity's context (after its cancel).
    const log = Context.current().log;
    const submitted = await recorded(
      input,
      job,
      submittedAt,
      async (): Promise<Submission & { pollAfterMs?: number }> => {
        const answer = await submitUnlessCancelled(adapter, job, ctx, (providerJobId, err) =>
          reportUncancelled(log, job, providerJobId, 'a provider job submitted for a step given up meanwhile could not be cancelled', err),
        );
        return answer.state === 'done' ? { state: 'done', outcome: await store(input, job, answer.result) } : answer;
      },
      { ends: (answer) => answer.state === 'done' },
    );
    if (submitted.state === 'done') return submitted;
    const cancelJob = () => adapter.cancel(job, submitted.providerJobId);
    const onRow = await recordSubmittedJob({
      record: () => repos.generations.recordProviderJob(input.generationId, submitted.providerJobId, { ...job.route, index: routeIndex }),
      cancel: cancelJob,
      signal: ctx.signal,
      ...(deps.recordJobPatienceMs !== undefined && { patienceMs: deps.recordJobPatienceMs }),
      onUncancelled: (err) => reportUncancelled(log, job, submitted.providerJobId, 'a provider job that could not be recorded could not be cancelled either', err),
    });
    if (!onRow) {
      await cancelJob().catch((err) => reportUncancelled(log, job, submitted.providerJobId, 'a provider job submitted on a route its generation closed meanwhile could not be cancelled', err));
      throw new CancelledFailure('The generation gave this route up while its provider job was being submitted; the job was cancelled.');
    }
    return { state: 'pending', providerJobId: submitted.providerJobId, submittedAt, ...(submitted.pollAfterMs !== undefined && { pollAfterMs: submitted.pollAfterMs }) };
  }

  /**
   * One job on one route: submitted, or, when an earlier run of this step recorded one there (its
   * worker died, a poll failed, a cancel raced it), that job resumed instead of submitting a second
   * paid one; then polled (heartbeating) until done and its files stored. Only a step that finds the
   * row already running reads it: a first run costs no extra statement.
   */
  async function runJobOnRoute(input: GenerationInput, routeIndex: number | undefined): Promise<ProviderOutcome> {
    const { job, adapter } = await jobOf(input, routeIndex);
    return withProviderContext(job, async (ctx) => {
      // Watched from before the submission: a callback that comes while the job is being recorded
      // still cuts the first wait short.
      const hints = deps.pollHints?.watch(job.generationId);
      try {
        const firstRun = await repos.generations.markRunning(input.generationId, job.route);
        const row = firstRun ? undefined : await repos.generations.findById(input.generationId);
        const resumed = row?.provider_job_id && (routeIndex === undefined || onRoute(row, job)) ? row : undefined;
        // A re-run's call is open from now (a call an earlier try left open is ended), or, resuming a
        // job, from that job's submission.
        if (!firstRun) await repos.generations.openAttempt(input.generationId, job.route, resumed && { since: resumed.provider_job_submitted_at });
        const submitted = resumed
          ? { state: 'pending' as const, providerJobId: resumed.provider_job_id!, submittedAt: resumed.provider_job_submitted_at?.getTime() ?? Date.now() }
          : await submit(input, job, adapter, ctx, routeIndex);
        if (submitted.state === 'done') return submitted.outcome;
        return await recorded(input, job, submitted.submittedAt, async () => store(input, job, await pollUntilDone(adapter, job, submitted, ctx, hints)), {
          resumable: true,
        });
      } finally {
        hints?.close();
      }
    });
  }

  return {
    /**
     * Sync modalities: the whole provider call on one route, its files stored. A provider that queues
     * the job (fal, Replicate past its wait) has it recorded on the row as an async job has, so a
     * retry of this local activity resumes it and a fallback or settlement cancels it.
     */
    async runProvider(input: GenerationInput, routeIndex?: number): Promise<ProviderOutcome> {
      return asTemporalFailure(() => runJobOnRoute(input, routeIndex), { input, routeIndex });
    },

    /**
     * Async modalities, in one step: hand the job to the route's provider, then poll it (heartbeating)
     * until it is done and store its files. Workflows from before `patched('one-provider-activity')`
     * run the two halves as the next two activities instead.
     */
    async runProviderJob(input: GenerationInput, routeIndex: number): Promise<ProviderOutcome> {
      return asTemporalFailure(() => runJobOnRoute(input, routeIndex), { input, routeIndex });
    },

    /**
     * Async modalities, step 1 (workflows from before `patched('one-provider-activity')`): hand the job
     * to the route's provider and remember its job id. A re-run first looks for the job it recorded on
     * this route, and otherwise submits with the same idempotency key, so the provider runs it once.
     */
    async submitToProvider(input: GenerationInput, routeIndex?: number): Promise<Submission> {
      return asTemporalFailure(async () => {
        const { job, adapter } = await jobOf(input, routeIndex);
        return withProviderContext(job, async (ctx): Promise<Submission> => {
          const row = await repos.generations.findById(input.generationId);
          if (row?.provider_job_id && (routeIndex === undefined || onRoute(row, job))) return { state: 'pending', providerJobId: row.provider_job_id };
          if (!(await repos.generations.markRunning(input.generationId, job.route))) await repos.generations.openAttempt(input.generationId, job.route);
          const submitted = await submit(input, job, adapter, ctx, routeIndex);
          return submitted.state === 'done' ? submitted : { state: 'pending', providerJobId: submitted.providerJobId };
        });
      }, { input, routeIndex });
    },

    /** Async modalities, step 2 (before `patched('one-provider-activity')`): poll until done, then store its files. */
    async awaitProviderJob(input: GenerationInput, providerJobId: string, routeIndex?: number): Promise<ProviderOutcome> {
      return asTemporalFailure(async () => {
        const { job, adapter } = await jobOf(input, routeIndex);
        const submittedAt = (await repos.generations.findById(input.generationId))?.provider_job_submitted_at;
        return withProviderContext(job, (ctx) =>
          recorded(input, job, submittedAt?.getTime() ?? Date.now(), async () => store(input, job, await pollUntilDone(adapter, job, { providerJobId }, ctx)), {
            resumable: true,
          }),
        );
      }, { input, routeIndex });
    },

    /**
     * Gives a route up: closes it on the row, so that a job still being submitted there cannot be
     * recorded (its submitter cancels it), and asks the provider to stop the job recorded there, if
     * any (best effort). The workflow never holds such a job's id: a fallback or a settlement
     * cancels it from the row.
     */
    async cancelRecordedProviderJob(input: GenerationInput, routeIndex: number): Promise<void> {
      const row = await repos.generations.closeProviderRoutes(input.generationId, routeIndex);
      if (!row?.provider_job_id) return;
      const { job, adapter } = await jobOf(input, routeIndex);
      if (!onRoute(row, job)) return;
      await adapter.cancel(job, row.provider_job_id);
      await repos.generations.clearProviderJob(input.generationId, row.provider_job_id);
    },

    /** A cancelled generation, or a route given up for the next one: ask the provider to stop (best effort). */
    async cancelProviderJob(input: GenerationInput, providerJobId: string, routeIndex?: number): Promise<void> {
      const { job, adapter } = await jobOf(input, routeIndex);
      await adapter.cancel(job, providerJobId);
      await repos.generations.clearProviderJob(input.generationId, providerJobId);
    },
  };
}

/** Whether the provider job recorded on a generation's row was submitted on this job's route. */
function onRoute(row: Pick<GenerationRow, 'provider' | 'provider_model'>, job: ProviderJob): boolean {
  return row.provider === job.route.provider && row.provider_model === job.route.model;
}

/**
 * A provider job nobody will wait for, which its provider refused to cancel: it may run on, and be
 * paid for, so an operator has to stop it.
 */
function reportUncancelled(log: Logger, job: ProviderJob, providerJobId: string, what: string, err: unknown): void {
  log.error(`${what}; cancel it at the provider`, {
    generation_id: job.generationId,
    provider: job.route.provider,
    provider_job_id: providerJobId,
    ...describeError(err),
  });
}

/** When a job's callback URL stops working: the job's own deadline plus a margin. */
function callbackExpiry(input: GenerationInput): Date {
  return new Date(Date.now() + input.timeouts.asyncJobTimeoutMs + CALLBACK_EXPIRY_MARGIN_MS);
}

/** The idempotency key of a generation's provider submission: stable across retries and workers. */
export function providerIdempotencyKey(generationId: string, routeIndex = 0): string {
  return routeIndex === 0 ? `${generationId}:submit` : `${generationId}:submit:${routeIndex}`;
}

/**
 * Chat is charged on the output tokens the provider reports; a provider that reports none (many
 * OpenAI-compatible servers) is charged on the answer's length in tokens, counted with the
 * o200k_base tokenizer (gpt-tokenizer), and the usage says it was estimated.
 */
function chatUsage(result: ProviderResult): ProviderUsage {
  if (result.usage?.outputTokens !== undefined) return result.usage;
  // Required here, not imported: the tokenizer's tables are about 45 MB, needed only for this.
  const { countTokens } = require('gpt-tokenizer') as typeof import('gpt-tokenizer');
  return { ...result.usage, outputTokens: countTokens(result.text ?? ''), outputTokensEstimated: true };
}

/**
 * Provider errors become Temporal failures that say whether a retry may help (`retryable`: on this
 * route) and whether the next route may (`fallsBack`: the workflow falls back on the transient type
 * only, workflows/failures.ts). What only the logs may see is logged here, with the generation id:
 * the root cause of an unreachable provider, a platform key the provider refused.
 */
async function asTemporalFailure<T>(fn: () => Promise<T>, step: { input: GenerationInput; routeIndex?: number | undefined }): Promise<T> {
  try {
    return await fn();
  } catch (caught) {
    const route = step.input.routes?.[step.routeIndex ?? 0];
    const refused = refusedPlatformKey(caught, route);
    const err = refused ?? caught;
    if (err instanceof ProviderError) {
      const fields = { generation_id: step.input.generationId, provider: route?.provider, provider_model: route?.model, error_code: err.code };
      if (refused) {
        Context.current().log.error(`platform credentials for ${route!.provider} were refused; the generation falls back to its next route, if any. Replace the key.`, {
          ...fields,
          provider_answer: refused.opts.internalDetail,
        });
      } else if (err.opts.internalDetail !== undefined) {
        Context.current().log.warn('a provider call failed', { ...fields, root_cause: err.opts.internalDetail });
      }
      const fallsBack = err.retryable || err.opts.fallsBack === true;
      throw ApplicationFailure.create({
        message: err.message,
        type: fallsBack ? PROVIDER_TRANSIENT_ERROR_TYPE : PROVIDER_ERROR_TYPE,
        nonRetryable: !err.retryable,
        // `retryable` is the caller's: a request another route could have served may succeed later.
        details: [{ code: err.code, source: err.opts.source ?? 'provider', retryable: fallsBack }],
        // A provider's Retry-After: the next try waits at least that long.
        ...(err.retryable && err.opts.retryAfterMs !== undefined && { nextRetryDelay: err.opts.retryAfterMs }),
      });
    }
    // Not a provider's answer: storage, the database, a bug. Its text (`connect ECONNREFUSED
    // 10.0.3.9:9000`, a stack's file names) is for the log; the generation's error_message, which
    // Temporal's failure message becomes, says only that it was ours. Its type is kept, and with it
    // the retry policy's verdict, and it is the cause (the workflow reads the outermost message);
    // cancellations and Temporal's own failures pass through.
    if (caught instanceof Error && !(caught instanceof TemporalFailure) && !Context.current().cancellationSignal.aborted) {
      Context.current().log.warn('a provider step failed on our side', { generation_id: step.input.generationId, ...describeError(caught) });
      throw ApplicationFailure.create({ message: OUR_FAILURE_MESSAGE, type: caught.name, cause: caught });
    }
    throw caught;
  }
}

/** What a caller is told of a provider step that failed on our side (the workflow's own wording). */
const OUR_FAILURE_MESSAGE = 'The generation failed on our side; its credits were refunded. Try again.';
