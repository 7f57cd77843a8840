import type { Client } from '@temporalio/client';
import type { Knex } from 'knex';
import { RequestTimeoutError, requestJson } from '../lib/http-client';
import type { ProbeOutcome } from '../lib/probe-trickle';

// The API process SIGKILLed mid-request. With API_EMBEDDED_WORKER the API runs the sync jobs it
// started eagerly on its own worker, so a kill takes their running workflow tasks with it: Temporal
// hands each to another worker polling the sync queue once the task times out (10 s), which must
// finish it, charged once. A client whose request was cut off retries with its Idempotency-Key
// and must get that one job back. Without the embedded worker the kill only cuts answers off.

/** Slow enough that the kill finds each one running; well within the sync window. */
const CUT_OFF_PROMPT = 'cut off by the API kill #slow:4000';
const ADMISSION_LIMIT_MS = 15_000;
const RETRY_LIMIT_MS = 120_000;
const REQUEST_TIMEOUT_MS = 15_000;

export interface CutOffRequests {
  idempotencyKeys: string[];
  /** Each request's answer or failure, once it has one (a kill leaves a connection failure). */
  answers: Promise<ProbeOutcome[]>;
}

/** Sends `count` sync images, each with its own Idempotency-Key, and waits until every one has been admitted (its generation row exists). */
export async function sendCutOffRequests(opts: { apiUrl: string; key: string; knex: Knex; organizationId: string; count: number; runId: string }): Promise<CutOffRequests> {
  const idempotencyKeys = Array.from({ length: opts.count }, (_, i) => `chaos-api-kill-${opts.runId}-${i}`);
  const answers = Promise.all(idempotencyKeys.map(async (idempotencyKey) => (await send(opts.apiUrl, opts.key, idempotencyKey)).outcome));
  const deadline = Date.now() + ADMISSION_LIMIT_MS;
  for (;;) {
    const admitted = await opts
      .knex('idempotency_keys as k')
      .join('generations as g', 'g.id', 'k.resource_id')
      .where('k.organization_id', opts.organizationId)
      .whereIn('k.key', idempotencyKeys)
      .count<{ n: string }[]>({ n: '*' });
    if (Number(admitted[0]?.n ?? 0) === idempotencyKeys.length) return { idempotencyKeys, answers };
    if (Date.now() > deadline) throw new Error(`the API kill's ${idempotencyKeys.length} sync images were not all admitted within ${ADMISSION_LIMIT_MS / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** One POST of the cut-off image with its key: the answer as the run's answer checks read it, and the body. */
async function send(apiUrl: string, key: string, idempotencyKey: string): Promise<{ outcome: ProbeOutcome; body: string }> {
  const startedAt = Date.now();
  try {
    const headers = { Authorization: `Bearer ${key}`, 'Idempotency-Key': idempotencyKey };
    const res = await requestJson('POST', `${apiUrl}/v1/images`, headers, { model: 'flux-schnell', prompt: CUT_OFF_PROMPT }, { timeoutMs: REQUEST_TIMEOUT_MS });
    const code = errorCode(res.body);
    const detail = res.status >= 500 ? res.body.slice(0, 300) : undefined;
    return { outcome: { probe: 'create', startedAt, ms: Date.now() - startedAt, status: res.status, code, detail }, body: res.body };
  } catch (err) {
    const failure = err instanceof RequestTimeoutError ? 'hang' : 'connection';
    return { outcome: { probe: 'create', startedAt, ms: Date.now() - startedAt, status: 0, failure, detail: (err as Error).message }, body: '' };
  }
}

function parse(body: string): { id?: string; status?: string; error?: { code?: string } } {
  try {
    return JSON.parse(body) as { id?: string; status?: string; error?: { code?: string } };
  } catch {
    return {};
  }
}

const errorCode = (body: string) => parse(body).error?.code;

export interface CutOffFigures {
  /** Requests the kill cut off (no answer). */
  cutOff: number;
  /** Of their jobs: ran on the killed API's own worker, then were finished by another worker. */
  handedOver: number;
}

/**
 * After the drain: each cut-off request, retried with its Idempotency-Key, answers 200 with its
 * one generation, succeeded and charged once (ledger: reserve, capture). A job whose workflow ran on
 * the killed API must have been finished by another worker.
 */
export async function checkCutOffRequests(opts: {
  knex: Knex;
  temporal: Client;
  apiUrl: string;
  key: string;
  requests: CutOffRequests;
  killedApiPid: number | undefined;
  retries: ProbeOutcome[];
}): Promise<{ violations: string[]; figures: CutOffFigures }> {
  const violations: string[] = [];
  const answers = await opts.requests.answers;
  let handedOver = 0;
  for (const idempotencyKey of opts.requests.idempotencyKeys) {
    const retried = await retryWithKey(opts.apiUrl, opts.key, idempotencyKey, opts.retries);
    if (retried.status !== 200 || retried.body.status !== 'succeeded' || !retried.body.id) {
      violations.push(`api kill: the retry with Idempotency-Key ${idempotencyKey} answered ${retried.status} ${JSON.stringify(retried.body).slice(0, 300)}`);
      continue;
    }
    const id = retried.body.id;
    const kinds = (await opts.knex('ledger_entries').where({ generation_id: id }).orderBy('id').select('kind')).map((r: { kind: string }) => r.kind);
    if (kinds.join() !== 'reserve,capture') violations.push(`api kill: ${id} has ledger rows [${kinds.join(', ')}], expected [reserve, capture]`);
    const events = (await opts.temporal.workflow.getHandle(id).fetchHistory()).events ?? [];
    const identities = events.flatMap((e) => e.workflowTaskStartedEventAttributes?.identity ?? []);
    const killed = `${opts.killedApiPid}@`;
    if (identities[0]?.startsWith(killed)) {
      if (identities.some((identity) => !identity.startsWith(killed))) handedOver++;
      else violations.push(`api kill: ${id} ran only on the killed API (workflow tasks started by ${identities.join(', ')})`);
    }
  }
  return { violations, figures: { cutOff: answers.filter((a) => a.failure === 'connection').length, handedOver } };
}

/** POSTs the same request again with its key until the answer is neither a 5xx, a failure nor 409 idempotency_in_progress. */
async function retryWithKey(apiUrl: string, key: string, idempotencyKey: string, retries: ProbeOutcome[]): Promise<{ status: number; body: { id?: string; status?: string } }> {
  const giveUpAt = Date.now() + RETRY_LIMIT_MS;
  for (;;) {
    const { outcome, body } = await send(apiUrl, key, idempotencyKey);
    retries.push(outcome);
    const again = outcome.failure !== undefined || outcome.status >= 500 || (outcome.status === 409 && outcome.code === 'idempotency_in_progress');
    if (!again || Date.now() > giveUpAt) return { status: outcome.status, body: parse(body) };
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
}
