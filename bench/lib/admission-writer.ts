import type { Knex } from 'knex';
import { createCreditActivities } from '../../activities/credits';
import { createRepos } from '../../db/repos';
import { findModel } from '../../domain/catalog';
import type { Plan } from '../../domain/plans';
import { estimateImageCredits } from '../../domain/pricing';
import { newId } from '../../lib/ids';
import { DEFAULT_GENERATION_TIMEOUTS, type GenerationInput } from '../../workflows/definitions';
import type { ErrorLog } from './harness';
import { percentile } from './stats';

// A steady stream of generations admitted and settled through the production money path while a
// benchmark reads (bench:usage): each is the worker's own credit activities (activities/credits.ts,
// as the generation workflow runs them, without Temporal): `reserveCredits` (the generation row
// and its reservation, coalesced per organization), then `captureCredits` (status, outputs, event,
// capture) or, one in ten, `refundCredits` (a provider failure). Every statement goes through the
// usage and budget triggers, so the reads compete with the writes a busy organization makes.
// Paced open loop: one generation every 1/rate s, at most MAX_IN_FLIGHT at once; a tick that finds
// them all busy is skipped and counted, so a writer that cannot keep up shows in its figures.

const MAX_IN_FLIGHT = 16;
const MODEL = 'flux-schnell';
const SIZE = { numOutputs: 1, width: 1024, height: 1024 };

export interface AdmissionWriterFigures {
  targetPerSecond: number;
  /** Generations admitted and settled while the writer ran. */
  settled: number;
  refunded: number;
  perSecond: number;
  /** Ticks skipped because MAX_IN_FLIGHT generations were still being written. */
  skippedTicks: number;
  /** Admission + settlement of one generation, in ms. */
  p50Ms: number;
  p99Ms: number;
}

export function startAdmissionWriter(args: { knex: Knex; organizationId: string; apiKeyIds: string[]; plan: Plan; perSecond: number; errors: ErrorLog }) {
  const credits = createCreditActivities({ knex: args.knex, repos: createRepos(args.knex) });
  const model = findModel(MODEL);
  if (!model) throw new Error(`the catalog has no ${MODEL}`);
  const estimatedCredits = estimateImageCredits(model, SIZE, args.plan);
  const latencies: number[] = [];
  const pending = new Set<Promise<void>>();
  let started = 0;
  let refunded = 0;
  let skippedTicks = 0;
  let stopped = false;

  async function writeOne(n: number): Promise<void> {
    const input: GenerationInput = {
      generationId: newId('gen'),
      organizationId: args.organizationId,
      apiKeyId: args.apiKeyIds[n % args.apiKeyIds.length]!,
      environment: 'live',
      modality: 'image',
      model: MODEL,
      prompt: 'usage bench writer',
      params: { width: SIZE.width, height: SIZE.height, num_outputs: SIZE.numOutputs },
      estimatedCredits,
      timeouts: DEFAULT_GENERATION_TIMEOUTS,
      plan: args.plan,
    };
    const t0 = performance.now();
    try {
      const admission = await credits.reserveCredits(input);
      if (!admission.admitted) throw new Error(`generation ${input.generationId} not admitted: ${admission.code}`);
      if (n % 10 === 9) {
        await credits.refundCredits({ generationId: input.generationId, status: 'failed', errorCode: 'provider_error', errorMessage: 'bench writer', errorSource: 'provider' });
        refunded++;
      } else {
        const output = { id: newId('out'), position: 0, storageKey: `bench/${input.generationId}.png`, mime: 'image/png', width: SIZE.width, height: SIZE.height };
        await credits.captureCredits({ input, outcome: { outputs: [output] } });
      }
      latencies.push(performance.now() - t0);
    } catch (err) {
      args.errors.unexpected('the admission writer', err);
    }
  }

  const interval = 1000 / args.perSecond;
  const begin = performance.now();
  const loop = (async () => {
    let next = begin;
    while (!stopped) {
      if (pending.size < MAX_IN_FLIGHT) {
        const p = writeOne(started++).finally(() => pending.delete(p));
        pending.add(p);
      } else skippedTicks++;
      next += interval;
      const wait = next - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    }
  })();

  return {
    /** Generations written so far (settled or in flight). */
    get started() {
      return started;
    },
    /** Stops starting generations, waits for those in flight, and returns the writer's figures. */
    async stop(): Promise<AdmissionWriterFigures> {
      stopped = true;
      await loop;
      await Promise.all(pending);
      const wallMs = performance.now() - begin;
      const sorted = [...latencies].sort((a, b) => a - b);
      return {
        targetPerSecond: args.perSecond,
        settled: latencies.length,
        refunded,
        perSecond: (latencies.length / wallMs) * 1000,
        skippedTicks,
        p50Ms: percentile(sorted, 0.5),
        p99Ms: percentile(sorted, 0.99),
      };
    },
  };
}
