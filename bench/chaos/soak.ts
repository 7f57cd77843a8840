import { randomUUID } from 'node:crypto';
import { RequestTimeoutError, requestJson } from '../lib/http-client';
import type { ProbeOutcome } from '../lib/probe-trickle';
import { planComparisons, type PlannedComparison } from './comparison-workload';
import { cancelWithRetry, planWorkload, type CancelResult, type PlannedGeneration, type PlannedRequest, type Submitted } from './workload';

// `npm run chaos -- --soak <operations>`: instead of one batch submitted before three faults in a
// row, a stream of randomized operations (generations of every modality, comparisons, cancels of
// things in flight, creations retried and replayed with their Idempotency-Key) while faults come
// at random times. Every answer a creation got is kept, so a 503 outside a fault is caught as in
// the standard run; the same checks run at the end. Seeded, so a finding can be replayed.

const REQUEST_TIMEOUT_MS = 30_000;
const RETRY_LIMIT_MS = 120_000;

/** mulberry32: a small seeded generator, so `--seed` replays a soak's choices. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Created<P extends PlannedRequest> = Submitted<P> & { idempotencyKey: string };

export interface SoakResult {
  generations: Submitted<PlannedGeneration>[];
  comparisons: Submitted<PlannedComparison>[];
  cancels: CancelResult[];
  comparisonCancels: CancelResult[];
  /** Every answer to a creation or a replay (probe `create`). */
  creations: ProbeOutcome[];
  operations: Record<'generation' | 'comparison' | 'cancel' | 'replay', number>;
  violations: string[];
}

function parse(text: string): { id?: string; status?: string; error?: { code?: string } } {
  try {
    return JSON.parse(text) as { id?: string; status?: string; error?: { code?: string } };
  } catch {
    return {};
  }
}

/** POSTs `plan` with `idempotencyKey`, again with the same key while the answer is a 5xx, no answer or 409 idempotency_in_progress. */
async function createWithKey<P extends PlannedRequest>(apiUrl: string, key: string, plan: P, idempotencyKey: string, answers: ProbeOutcome[]) {
  const giveUpAt = Date.now() + RETRY_LIMIT_MS;
  for (;;) {
    const startedAt = Date.now();
    try {
      const res = await requestJson('POST', `${apiUrl}${plan.route}`, { Authorization: `Bearer ${key}`, 'Idempotency-Key': idempotencyKey }, plan.body, {
        timeoutMs: REQUEST_TIMEOUT_MS,
      });
      const body = parse(res.body);
      const detail = res.status >= 500 ? res.body.slice(0, 300) : undefined;
      answers.push({ probe: 'create', startedAt, ms: Date.now() - startedAt, status: res.status, code: body.error?.code, id: body.id, detail });
      const retry = res.status >= 500 || (res.status === 409 && body.error?.code === 'idempotency_in_progress');
      if (!retry) {
        return (res.status === 200 || res.status === 202) && body.id && body.status
          ? { created: { ...plan, id: body.id, answeredStatus: body.status, idempotencyKey } as Created<P> }
          : { refused: `POST ${plan.route} answered ${res.status}: ${res.body.slice(0, 300)}` };
      }
    } catch (err) {
      const failure = err instanceof RequestTimeoutError ? 'hang' : 'connection';
      answers.push({ probe: 'create', startedAt, ms: Date.now() - startedAt, status: 0, failure, detail: (err as Error).message });
    }
    if (Date.now() > giveUpAt) return { refused: `POST ${plan.route} with Idempotency-Key ${idempotencyKey}: no answer but 5xx or none for ${RETRY_LIMIT_MS / 1000} s` };
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
}

/** Runs `operations` randomized operations, `concurrency` at a time. */
export async function runSoak(opts: { apiUrl: string; key: string; imageUrl: string; operations: number; concurrency: number; random: () => number }): Promise<SoakResult> {
  const { apiUrl, key, random } = opts;
  const generationPlans = planWorkload(64, opts.imageUrl);
  const comparisonPlans = planComparisons(40, opts.imageUrl);
  const generations: Created<PlannedGeneration>[] = [];
  const comparisons: Created<PlannedComparison>[] = [];
  const cancelled = new Set<string>();
  const cancels: CancelResult[] = [];
  const comparisonCancels: CancelResult[] = [];
  const creations: ProbeOutcome[] = [];
  const violations: string[] = [];
  const operations = { generation: 0, comparison: 0, cancel: 0, replay: 0 };

  const create = async <P extends PlannedRequest>(plan: P, into: Created<P>[]) => {
    const result = await createWithKey(apiUrl, key, { ...plan, cancel: false }, randomUUID(), creations);
    if (result.created) into.push(result.created);
    else violations.push(`soak: ${result.refused}`);
  };
  // The kinds of operations and their plans are drawn up front, so a seed gives the same sequence
  // whatever the timing; which earlier resource a cancel or a replay picks depends on what exists by then.
  const draws = Array.from({ length: opts.operations }, () => ({ roll: random(), plan: random(), target: random() }));
  const pickBy = <T>(list: T[], r: number) => list[Math.floor(r * list.length)];
  const operation = async (draw: (typeof draws)[number]) => {
    const { roll } = draw;
    const created = [...generations, ...comparisons];
    const cancelable = created.filter((c) => !cancelled.has(c.id));
    // Until something exists to cancel or replay, every operation creates.
    if (roll < 0.55 || cancelable.length === 0) {
      operations.generation++;
      return create(pickBy(generationPlans, draw.plan)!, generations);
    }
    if (roll < 0.7) {
      operations.comparison++;
      return create(pickBy(comparisonPlans, draw.plan)!, comparisons);
    }
    if (roll < 0.85) {
      const target = pickBy(cancelable, draw.target)!;
      operations.cancel++;
      cancelled.add(target.id);
      const resource = target.kind === 'comparison' ? 'comparisons' : 'generations';
      const result = await cancelWithRetry(apiUrl, key, target.id, 90_000, resource);
      (resource === 'comparisons' ? comparisonCancels : cancels).push(result);
      return;
    }
    // The client never saw its answer (it says): the same request again with the same key must name the same resource.
    operations.replay++;
    const first = pickBy(created, draw.target)!;
    const again = await createWithKey(apiUrl, key, first, first.idempotencyKey, creations);
    if (!again.created) violations.push(`soak: replaying ${first.id} with its Idempotency-Key: ${again.refused}`);
    else if (again.created.id !== first.id) violations.push(`soak: replaying ${first.id} with its Idempotency-Key created ${again.created.id}`);
  };

  const lane = async () => {
    for (let draw = draws.shift(); draw; draw = draws.shift()) await operation(draw);
  };
  await Promise.all(Array.from({ length: opts.concurrency }, lane));
  return { generations, comparisons, cancels, comparisonCancels, creations, operations, violations };
}
