import assert from 'node:assert/strict';
import type { Logger, LogLevel, LogMetadata } from '@temporalio/common';
import { MockActivityEnvironment } from '@temporalio/testing';
import type { Knex } from 'knex';
import { createActivities } from '../../activities';
import { createProviderRegistry } from '../../activities/providers/registry';
import { createSimulator } from '../../activities/providers/simulator';
import { createKnex } from '../../db/knex';
import { createRepos, type Repos } from '../../db/repos';
import { DEFAULT_GENERATION_TIMEOUTS } from '../../domain/generation-timeouts';
import { newId } from '../../lib/ids';
import type { GenerationInput, ProviderOutcome } from '../../workflows/definitions';
import { createOrganization, waitFor } from '../helpers/http';
import { assertLedgerBalanced } from '../helpers/ledger';
import { stack } from '../helpers/stack';
import { startPostgresProxy } from '../helpers/tcp-proxy';
import { classifyDependencyError } from '../../lib/dependency-errors';

// A provider submission happens once per generation, however often its step runs, and a job its
// generation gave up is cancelled at the provider, even one whose submission raced the cancel.

/** A logger for a MockActivityEnvironment that keeps what was logged at `error`. */
function errorLog(): { logger: Logger; errors: { message: string; meta?: LogMetadata }[] } {
  const errors: { message: string; meta?: LogMetadata }[] = [];
  const log = (level: LogLevel, message: string, meta?: LogMetadata) => void (level === 'ERROR' && errors.push({ message, ...(meta && { meta }) }));
  const at = (level: LogLevel) => (message: string, meta?: LogMetadata) => log(level, message, meta);
  return { errors, logger: { log, trace: at('TRACE'), debug: at('DEBUG'), info: at('INFO'), warn: at('WARN'), error: at('ERROR') } };
}

/**
 * The one error logged for a job nobody will wait for, whose provider refused to cancel it: it names
 * the job, so an operator can stop it at the provider.
 */
function assertReported(errors: ReturnType<typeof errorLog>['errors'], providerJobId: string, what: RegExp): void {
  assert.equal(errors.length, 1, JSON.stringify(errors));
  assert.match(errors[0]!.message, what);
  assert.match(errors[0]!.message, /cancel it at the provider/);
  assert.equal(errors[0]!.meta?.provider_job_id, providerJobId);
  assert.equal(errors[0]!.meta?.provider, 'simulator');
  assert.match(String(errors[0]!.meta?.error), /refused the cancel/);
}

describe('provider submissions', () => {
  async function admittedVideo(
    opts: {
      asyncLatencyMs?: number;
      routes?: GenerationInput['routes'];
      submitAnswered?: Promise<void>;
      /** The activities' database (a proxy in front of the stack's), and how long a job's record waits it out. */
      db?: { knex: Knex; repos: Repos };
      recordJobPatienceMs?: number;
      /** The provider answers every cancel with an error (the job runs on there). */
      cancelRefused?: boolean;
    } = {},
  ) {
    const org = await createOrganization({ credits: 10_000 });
    const key = await stack().knex('api_keys').where({ organization_id: org.id, environment: 'live' }).first('id');
    const input: GenerationInput = {
      generationId: newId('gen'),
      organizationId: org.id,
      apiKeyId: key.id,
      environment: 'live',
      modality: 'video',
      model: 'hailuo-02',
      prompt: 'once',
      params: {},
      estimatedCredits: 100,
      timeouts: DEFAULT_GENERATION_TIMEOUTS,
      plan: 'pro',
      admitBy: Date.now() + 60_000,
      ...(opts.routes && { routes: opts.routes }),
    };
    const simulator = createSimulator({ asyncLatencyMs: opts.asyncLatencyMs ?? 60_000 });
    const calls = { submit: 0, cancel: [] as string[], submitted: [] as string[] };
    const activities = createActivities({
      knex: opts.db?.knex ?? stack().knex,
      repos: opts.db?.repos ?? stack().repos,
      ...(opts.recordJobPatienceMs !== undefined && { recordJobPatienceMs: opts.recordJobPatienceMs }),
      storage: stack().apiDeps.storage,
      providers: createProviderRegistry({
        // The simulator, counting what it is asked: its idempotency would answer a second submission with the same job.
        simulator: {
          ...simulator,
          submit: async (job, ctx) => {
            calls.submit += 1;
            await opts.submitAnswered;
            const answer = await simulator.submit(job, ctx);
            if (answer.state === 'pending') calls.submitted.push(answer.providerJobId);
            return answer;
          },
          cancel: async (job, providerJobId) => {
            calls.cancel.push(providerJobId);
            if (opts.cancelRefused) throw new Error('the provider refused the cancel');
            return simulator.cancel(job, providerJobId);
          },
        },
        providerMode: 'simulated',
      }),
    });
    const env = new MockActivityEnvironment();
    assert.deepEqual(await env.run(activities.reserveCredits, input), { admitted: true });
    return { org, input, activities, env, calls };
  }

  /** Runs runProviderJob until it has recorded its provider job, then cancels it, as a worker that died would leave it. */
  async function interruptedAfterSubmission(activities: ReturnType<typeof createActivities>, input: GenerationInput, route: number): Promise<string> {
    const env = new MockActivityEnvironment();
    const running = env.run(activities.runProviderJob, input, route);
    const providerJobId = await waitFor(async () => (await stack().repos.generations.findById(input.generationId))?.provider_job_id ?? undefined, 10_000, 'the recorded job');
    env.cancel();
    await assert.rejects(running);
    return providerJobId;
  }

  it('runProviderJob submits once: a re-run resumes polling the job it recorded, to its files', async () => {
    const { org, input, activities, env, calls } = await admittedVideo({ asyncLatencyMs: 1_500 });
    const providerJobId = await interruptedAfterSubmission(activities, input, 0);
    const outcome = (await env.run(activities.runProviderJob, input, 0)) as ProviderOutcome;
    assert.equal(calls.submit, 1, 'submitted once');
    assert.equal(outcome.outputs.length, 1);
    assert.equal(outcome.outputs[0]!.mime, 'video/mp4');
    const row = await stack().repos.generations.findById(input.generationId);
    assert.equal(row?.provider_job_id, providerJobId);
    assert.deepEqual(
      row?.attempts?.map((a) => a.outcome),
      ['succeeded'],
      'one attempt, ended by the poll that found the job done',
    );
    await env.run(activities.captureCredits, { input, outcome });
    await assertLedgerBalanced(org.id);
  });

  it("cancelRecordedProviderJob stops the job recorded on its own route, and leaves another route's alone", async () => {
    const routes = [
      { provider: 'simulator', model: 'hailuo-02' },
      { provider: 'simulator', model: 'hailuo-02-fallback' },
    ] as GenerationInput['routes'];
    const { org, input, activities, env, calls } = await admittedVideo({ routes });
    const providerJobId = await interruptedAfterSubmission(activities, input, 0);
    await env.run(activities.cancelRecordedProviderJob, input, 1);
    assert.deepEqual(calls.cancel, [], 'not the route that ran it');
    assert.equal((await stack().repos.generations.findById(input.generationId))?.provider_job_id, providerJobId);
    await env.run(activities.cancelRecordedProviderJob, input, 0);
    assert.deepEqual(calls.cancel, [providerJobId]);
    assert.equal((await stack().repos.generations.findById(input.generationId))?.provider_job_id, null);
    // Nothing left to stop: a second call asks the provider nothing.
    await env.run(activities.cancelRecordedProviderJob, input, 0);
    assert.equal(calls.cancel.length, 1);
    await env.run(activities.refundCredits, { generationId: input.generationId, status: 'failed' as const });
    await assertLedgerBalanced(org.id);
  });

  it('a job submitted on a route the generation closed meanwhile is cancelled by the step that submitted it, not recorded', async () => {
    const { org, input, activities, env, calls } = await admittedVideo();
    // The settlement gives the route up before the submission's answer comes back (a cancel the
    // activity has not heard of yet): nothing is recorded there to cancel.
    await env.run(activities.cancelRecordedProviderJob, input, 0);
    assert.deepEqual(calls.cancel, []);
    await assert.rejects(env.run(activities.runProviderJob, input, 0), (err: Error) => err.name === 'CancelledFailure' && /gave this route up/.test(err.message));
    assert.equal(calls.submitted.length, 1);
    assert.deepEqual(calls.cancel, calls.submitted, 'the job it submitted was cancelled');
    assert.equal((await stack().repos.generations.findById(input.generationId))?.provider_job_id, null);
    await env.run(activities.refundCredits, { generationId: input.generationId, status: 'canceled' as const });
    await assertLedgerBalanced(org.id);
  });

  it('a step cancelled while its submission is unanswered ends at once, and cancels the job once the answer names it', async () => {
    let answer!: () => void;
    const { org, input, activities, calls } = await admittedVideo({ submitAnswered: new Promise<void>((resolve) => (answer = resolve)) });
    const env = new MockActivityEnvironment();
    const running = env.run(activities.runProviderJob, input, 0);
    await waitFor(async () => calls.submit === 1, 10_000, 'the submission');
    env.cancel();
    await assert.rejects(running, (err: Error) => err.name === 'CancelledFailure');
    assert.deepEqual(calls.cancel, [], 'no job known yet');
    answer();
    await waitFor(async () => calls.cancel.length === 1, 10_000, 'the late job to be cancelled');
    assert.deepEqual(calls.cancel, calls.submitted);
    assert.equal((await stack().repos.generations.findById(input.generationId))?.provider_job_id, null, 'never recorded');
    await new MockActivityEnvironment().run(activities.refundCredits, { generationId: input.generationId, status: 'canceled' as const });
    await assertLedgerBalanced(org.id);
  });

  describe('a job nobody will wait for, whose provider refuses to cancel it', () => {
    it('submitted on a route the generation closed meanwhile: logged at error with its id, the step ends as cancelled', async () => {
      const { org, input, activities, env, calls } = await admittedVideo({ cancelRefused: true });
      await env.run(activities.cancelRecordedProviderJob, input, 0);
      const { logger, errors } = errorLog();
      await assert.rejects(new MockActivityEnvironment(undefined, { logger }).run(activities.runProviderJob, input, 0), (err: Error) => err.name === 'CancelledFailure');
      assert.deepEqual(calls.cancel, calls.submitted);
      assertReported(errors, calls.submitted[0]!, /route its generation closed/);
      await env.run(activities.refundCredits, { generationId: input.generationId, status: 'canceled' as const });
      await assertLedgerBalanced(org.id);
    });

    it('named by an answer that came after its step was cancelled: logged at error with its id', async () => {
      let answer!: () => void;
      const { org, input, activities, calls } = await admittedVideo({ cancelRefused: true, submitAnswered: new Promise<void>((resolve) => (answer = resolve)) });
      const { logger, errors } = errorLog();
      const env = new MockActivityEnvironment(undefined, { logger });
      const running = env.run(activities.runProviderJob, input, 0);
      await waitFor(async () => calls.submit === 1, 10_000, 'the submission');
      env.cancel();
      await assert.rejects(running, (err: Error) => err.name === 'CancelledFailure');
      answer();
      await waitFor(async () => errors.length === 1, 10_000, 'the refused cancel to be logged');
      assert.deepEqual(calls.cancel, calls.submitted);
      assertReported(errors, calls.submitted[0]!, /step given up meanwhile/);
      await new MockActivityEnvironment().run(activities.refundCredits, { generationId: input.generationId, status: 'canceled' as const });
      await assertLedgerBalanced(org.id);
    });
  });

  it(`runProviderJob heartbeats from a third of its heartbeat timeout on, and on while its submission is unanswered`, async () => {
    let answer!: () => void;
    const { org, input, activities } = await admittedVideo({ asyncLatencyMs: 300, submitAnswered: new Promise<void>((resolve) => (answer = resolve)) });
    const heartbeatTimeoutMs = 600;
    const env = new MockActivityEnvironment({ heartbeatTimeoutMs });
    const startedAt = Date.now();
    const beats: number[] = [];
    env.on('heartbeat', () => beats.push(Date.now() - startedAt));
    const running = env.run(activities.runProviderJob, input, 0);
    await waitFor(async () => beats.length >= 3, 10_000, 'three heartbeats while the submission is held');
    // Not at once, as before: a third of the timeout (a timer may fire a millisecond early by Date.now()).
    assert.ok(beats[0]! >= heartbeatTimeoutMs / 3 - 5, `the first heartbeat came after ${beats[0]} ms`);
    answer();
    const outcome = (await running) as ProviderOutcome;
    assert.equal(outcome.outputs[0]!.mime, 'video/mp4');
    await env.run(activities.captureCredits, { input, outcome });
    await assertLedgerBalanced(org.id);
  });

  describe('a job the provider accepted while the database is unreachable', () => {
    /**
     * The activities' database behind a proxy the test can cut off, with the failures of recording
     * a provider job counted as they happen (the real repository, through the proxy).
     */
    async function cutOffDatabase() {
      const { proxy, databaseUrl } = await startPostgresProxy(stack().config.databaseUrl!);
      const knex = createKnex(databaseUrl);
      const repos = createRepos(knex);
      const recordFailures: unknown[] = [];
      const recordProviderJob: Repos['generations']['recordProviderJob'] = (...args) =>
        repos.generations.recordProviderJob(...args).catch((err: unknown) => {
          recordFailures.push(err);
          throw err;
        });
      return {
        proxy,
        recordFailures,
        db: { knex, repos: { ...repos, generations: { ...repos.generations, recordProviderJob } } },
        async close() {
          await proxy.restore();
          await knex.destroy();
          await proxy.close();
        },
      };
    }

    /** Runs `fn` with a database it can cut off, closed afterwards whatever happens. */
    async function withDatabaseCutOff(fn: (cut: Awaited<ReturnType<typeof cutOffDatabase>>) => Promise<void>): Promise<void> {
      const cut = await cutOffDatabase();
      try {
        await fn(cut);
      } finally {
        await cut.close();
      }
    }

    /** A video step whose submission is answered only once the database is cut off. */
    async function submittedDuringOutage(cut: Awaited<ReturnType<typeof cutOffDatabase>>, opts: { recordJobPatienceMs?: number; cancelRefused?: boolean; logger?: Logger } = {}) {
      let answer!: () => void;
      const admitted = await admittedVideo({
        asyncLatencyMs: 300,
        submitAnswered: new Promise<void>((resolve) => (answer = resolve)),
        db: cut.db,
        ...(opts.recordJobPatienceMs !== undefined && { recordJobPatienceMs: opts.recordJobPatienceMs }),
        ...(opts.cancelRefused && { cancelRefused: true }),
      });
      const env = new MockActivityEnvironment(undefined, opts.logger && { logger: opts.logger });
      const running = env.run(admitted.activities.runProviderJob, admitted.input, 0);
      running.catch(() => undefined);
      await waitFor(async () => admitted.calls.submit === 1, 10_000, 'the submission');
      await cut.proxy.refuse();
      answer();
      return { ...admitted, env, running };
    }

    it('records it once the database is back: one job, not cancelled, run to its files', () =>
      withDatabaseCutOff(async (cut) => {
        const { org, input, activities, env, calls, running } = await submittedDuringOutage(cut);
        await waitFor(async () => cut.recordFailures.length >= 1, 20_000, 'a failed record');
        assert.equal(classifyDependencyError(cut.recordFailures[0]), 'postgres', String(cut.recordFailures[0]));
        await cut.proxy.restore();
        const outcome = (await running) as ProviderOutcome;
        assert.equal(outcome.outputs[0]!.mime, 'video/mp4');
        assert.equal(calls.submit, 1, 'submitted once');
        assert.deepEqual(calls.cancel, [], 'nothing cancelled');
        assert.equal((await stack().repos.generations.findById(input.generationId))?.provider_job_id, calls.submitted[0]);
        await env.run(activities.captureCredits, { input, outcome });
        await assertLedgerBalanced(org.id);
      }));

    it('cancels it at the provider when the outage outlasts the wait, and fails the step with the outage; the next try runs its own job', () =>
      withDatabaseCutOff(async (cut) => {
        const { org, input, activities, calls, running } = await submittedDuringOutage(cut, { recordJobPatienceMs: 1_000 });
        await assert.rejects(running, (err: Error) => classifyDependencyError(err.cause) === 'postgres');
        assert.ok(cut.recordFailures.length >= 1);
        assert.deepEqual(calls.cancel, calls.submitted, 'the job it could not record was cancelled');
        await cut.proxy.restore();
        assert.equal((await stack().repos.generations.findById(input.generationId))?.provider_job_id, null);
        const env = new MockActivityEnvironment({ attempt: 2 });
        const outcome = (await env.run(activities.runProviderJob, input, 0)) as ProviderOutcome;
        assert.equal(calls.submitted.length, 2);
        assert.deepEqual(calls.cancel, [calls.submitted[0]], 'the second job ran to its files');
        const row = await stack().repos.generations.findById(input.generationId);
        // The first call's end was never recorded: the next try ends it as failed on our side.
        assert.deepEqual(
          row?.attempts?.map((a) => [a.model, a.outcome, a.error_code]),
          [
            ['hailuo-02', 'failed', 'internal_error'],
            ['hailuo-02', 'succeeded', undefined],
          ],
        );
        assert.equal((await stack().knex('generations').where({ id: input.generationId }).first('open_attempt')).open_attempt, null);
        await env.run(activities.captureCredits, { input, outcome });
        await assertLedgerBalanced(org.id);
      }));

    it('logs it at error with its id when the provider refuses that cancel', () =>
      withDatabaseCutOff(async (cut) => {
        const { logger, errors } = errorLog();
        const { org, input, activities, calls, running } = await submittedDuringOutage(cut, { recordJobPatienceMs: 1_000, cancelRefused: true, logger });
        await assert.rejects(running, (err: Error) => classifyDependencyError(err.cause) === 'postgres');
        assert.deepEqual(calls.cancel, calls.submitted);
        assertReported(errors, calls.submitted[0]!, /could not be recorded could not be cancelled either/);
        await cut.proxy.restore();
        await new MockActivityEnvironment().run(activities.refundCredits, { generationId: input.generationId, status: 'failed' as const });
        await assertLedgerBalanced(org.id);
      }));

    it('cancels it at the provider when the step is cancelled while it waits, and ends as cancelled', () =>
      withDatabaseCutOff(async (cut) => {
        const { org, input, activities, env, calls, running } = await submittedDuringOutage(cut);
        await waitFor(async () => cut.recordFailures.length >= 1, 20_000, 'a failed record');
        env.cancel();
        await assert.rejects(running, (err: Error) => err.name === 'CancelledFailure');
        assert.deepEqual(calls.cancel, calls.submitted, 'the job it could not record was cancelled');
        await cut.proxy.restore();
        await new MockActivityEnvironment().run(activities.refundCredits, { generationId: input.generationId, status: 'canceled' as const });
        await assertLedgerBalanced(org.id);
      }));
  });
});
