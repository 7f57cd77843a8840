import type { Knex } from 'knex';
import { createAdmissionCoalescer } from '../db/admission-coalescer';
import type { Db } from '../db/knex';
import * as ledger from '../db/ledger';
import type { Repos } from '../db/repos';
import type { GenerationRow } from '../db/repos/generations';
import { findModel } from '../domain/catalog';
import { generationEvent } from '../domain/generation-events';
import { billedQuantity, creditsAtPrice, deliveredCredits, unitPriceOf, type UnitPrice } from '../domain/pricing';
import { newId } from '../lib/ids';
import type { Admission, GeneratedFile, GenerationInput, ProviderOutcome } from '../workflows/definitions';
import { budgetRefusal, refusedByBudget } from './budget-refusal';
import { failPermanently } from './permanent-failures';
import { countCaptured, countFinished, countRefunded, countReserved } from './job-metrics';

// Money activities. Each is one transaction and is safe to retry: the generation's status moves
// only from a non-terminal state, and ledger rows are unique per (generation, kind).
// The terminal state, its ledger rows and its event are committed together (a transactional
// outbox): an event exists exactly when its money moved, and webhook delivery reads the outbox.
// The ledger comes last in each transaction, so the wallet's row lock is held only until the commit.
// Admissions are coalesced per organization (db/admission-coalescer.ts): the reservations that
// arrive while one is in flight share the next statement and its commit.

/**
 * Only a live generation that reserved something has money to move: the sandbox (decisions §4)
 * and zero-cost generations write no ledger rows at all, though their status and event still commit.
 */
function movesMoney(gen: GenerationRow): boolean {
  return gen.environment === 'live' && gen.reserved_credits > 0;
}

export function createCreditActivities(deps: { knex: Knex; repos: Repos }) {
  const { knex, repos } = deps;
  const admission = createAdmissionCoalescer(knex, { onReserved: countReserved });

  /** The statement of the generation's event (its outbox row), if its new status has one. */
  function eventStatement(gen: GenerationRow, trx: Db): Knex.QueryBuilder[] {
    const event = generationEvent(gen);
    return event ? [repos.events.appendStatement({ id: newId('evt'), organization_id: gen.organization_id, environment: gen.environment, subject_id: gen.id, ...event }, trx)] : [];
  }

  /**
   * A generation's terminal transaction in four round trips: BEGIN; its terminal UPDATE with the
   * lock on its reservation; its outputs, its event and its ledger rows in one statement; COMMIT.
   * The lock comes before the ledger's statement, as db/ledger.ts's settlements require; a
   * generation already terminal (a retry, a lost race) changes nothing.
   */
  async function settle(
    finish: (trx: Knex.Transaction) => Knex.QueryBuilder,
    movement: (done: GenerationRow) => Pick<ledger.Settlement, 'charged' | 'kind'>,
    outputs: (trx: Knex.Transaction) => Knex.QueryBuilder[] = () => [],
  ): Promise<{ done: GenerationRow; moved: boolean } | undefined> {
    return failPermanently(() =>
      knex.transaction(async (trx) => {
        const finished = await ledger.finishLockingReservation<GenerationRow>(trx, finish(trx));
        if (!finished) return undefined;
        const { row: done, reservedAmount } = finished;
        const moved = await ledger.settleLockedReservation(
          trx,
          { organizationId: done.organization_id, generationId: done.id, reserved: done.reserved_credits, ...movement(done) },
          movesMoney(done) ? reservedAmount : undefined,
          [...outputs(trx), ...eventStatement(done, trx)],
        );
        return { done, moved };
      }),
    );
  }

  return {
    /**
     * Records the generation and reserves its estimate, or records nothing; one statement, shared
     * with the organization's other admissions that queued behind the previous one.
     */
    async reserveCredits(input: GenerationInput): Promise<Admission> {
      return failPermanently(async () => {
        const admitted = await budgetRefusal(
          () =>
            admission.admit({
              id: input.generationId,
              organization_id: input.organizationId,
              api_key_id: input.apiKeyId,
              environment: input.environment,
              modality: input.modality,
              model: input.model,
              prompt: input.prompt,
              params: input.params,
              reserved_credits: input.estimatedCredits,
              cache_key: input.cacheKey ?? null,
              admit_by: input.admitBy ?? null,
              budget_period: input.budgetPeriod ?? null,
              pricing: input.pricing ?? null,
              deadline_at: input.deadlineAt ?? null,
            }),
          () => refusedByBudget(repos, input.apiKeyId, input.budgetPeriod),
        );
        if (typeof admitted === 'object') return admitted;
        if (admitted) return { admitted: true };
        if ((await repos.admissionClaims.refusalReason(input.generationId, input.admitBy)) === 'admission_timeout') {
          return { admitted: false, code: 'admission_timeout' };
        }
        const balance = await ledger.getWalletBalance(knex, input.organizationId);
        return { admitted: false, code: 'insufficient_credits', availableCredits: balance.availableCredits };
      });
    },

    /** Success: charges the reservation, releases any rest, records the outputs and the event. */
    async captureCredits(args: { input: GenerationInput; outcome: ProviderOutcome }): Promise<void> {
      const { input, outcome } = args;
      // Counted once committed, and only by the call that moved the generation (a retry finds it terminal).
      const settled = await settle(
        (trx) =>
          repos.generations.finishSucceededStatement(
            input.generationId,
            {
              chargedCredits: actualCharge(input, outcome),
              ...(outcome.text !== undefined && { outputText: outcome.text }),
              ...(outcome.usage && {
                usage: {
                  ...(outcome.usage.inputTokens !== undefined && { input_tokens: outcome.usage.inputTokens }),
                  ...(outcome.usage.outputTokens !== undefined && { output_tokens: outcome.usage.outputTokens }),
                  ...(outcome.usage.outputTokensEstimated && { output_tokens_estimated: true }),
                },
              }),
              ...(outcome.served && { served: outcome.served }),
            },
            trx,
          ),
        (done) => ({ kind: 'capture', charged: done.charged_credits }),
        (trx) => {
          const statement = repos.generations.insertOutputsStatement(
            outcome.outputs.map((file) => outputRow(input.generationId, file)),
            trx,
          );
          return statement ? [statement] : [];
        },
      );
      if (settled) countSettled(settled.done, settled.moved, countCaptured);
    },

    /** Failure or cancel: the whole reservation goes back; a failure also records its event. */
    async refundCredits(args: {
      generationId: string;
      status: 'failed' | 'canceled';
      errorCode?: string;
      errorMessage?: string;
      errorSource?: 'provider' | 'gateway';
      retryable?: boolean;
    }): Promise<void> {
      const settled = await settle(
        (trx) => repos.generations.finishUnsuccessfulStatement(args.generationId, args, trx),
        () => ({ kind: 'refund', charged: 0 }),
      );
      if (settled) countSettled(settled.done, settled.moved, countRefunded);
    },
  };
}

/** A generation this call settled: it finished, and its credits moved if the ledger rows were written. */
function countSettled(done: GenerationRow, moved: boolean, countMoney: (gen: GenerationRow) => void): void {
  countFinished(done);
  if (moved) countMoney(done);
}

/**
 * What a success costs (decisions §4: the actual cost). Chat is reserved on max_tokens and charged
 * on the output tokens the provider reports; media is charged on what its files measure (the images
 * delivered, their megapixels, the seconds of video or audio); a job priced on its request
 * (characters, a transcription's minutes) costs its estimate (undefined: the whole reservation).
 * The repository caps the charge at the reservation, so a longer clip never costs more than asked.
 * Every figure is priced at the job's snapshot (the price it was admitted at), never at the catalog
 * as it is now; only a job from before snapshots, whose input has none, is priced at the catalog.
 */
function actualCharge(input: GenerationInput, outcome: ProviderOutcome): number | undefined {
  const price = input.pricing ?? livePrice(input);
  if (!price) return undefined;
  if (price.unit === '1m_output_tokens') {
    const outputTokens = outcome.usage?.outputTokens;
    return outputTokens === undefined ? undefined : creditsAtPrice(billedQuantity(price.unit, { outputTokens }), price);
  }
  return deliveredCredits(price, outcome.outputs);
}

function livePrice(input: GenerationInput): UnitPrice | undefined {
  const model = findModel(input.model);
  return model && unitPriceOf(model, input.plan);
}

function outputRow(generationId: string, file: GeneratedFile) {
  return {
    id: file.id,
    generation_id: generationId,
    position: file.position,
    storage_key: file.storageKey,
    mime: file.mime,
    width: file.width ?? null,
    height: file.height ?? null,
    duration_s: file.durationS ?? null,
  };
}
