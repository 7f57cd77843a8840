import type { Knex } from 'knex';
import * as ledger from '../db/ledger';
import type { Repos } from '../db/repos';
import type { OutputRow } from '../db/repos/generations';
import type { Admission, GenerationInput } from '../workflows/definitions';

// Money activities. Each is one transaction and is safe to retry: the generation's status moves
// only from a non-terminal state, and ledger rows are unique per (generation, kind).

class InsufficientCredits extends Error {}

export function createCreditActivities(deps: { knex: Knex; repos: Repos }) {
  const { knex, repos } = deps;
  return {
    /** Records the generation and reserves its estimate in one transaction, or records nothing. */
    async reserveCredits(input: GenerationInput): Promise<Admission> {
      try {
        await knex.transaction(async (trx) => {
          const inserted = await repos.generations.insertQueued(
            {
              id: input.generationId,
              organization_id: input.organizationId,
              api_key_id: input.apiKeyId,
              environment: input.environment,
              modality: input.modality,
              model: input.model,
              prompt: input.prompt,
              params: input.params,
              reserved_credits: input.estimatedCredits,
            },
            trx,
          );
          // Already recorded: a retried activity whose first attempt committed.
          if (!inserted || input.estimatedCredits === 0) return;
          const reserved = await ledger.reserveCredits(trx, {
            organizationId: input.organizationId,
            generationId: input.generationId,
            amount: input.estimatedCredits,
          });
          if (!reserved) throw new InsufficientCredits();
        });
        return { admitted: true };
      } catch (err) {
        if (!(err instanceof InsufficientCredits)) throw err;
        const balance = await ledger.getWalletBalance(knex, input.organizationId);
        return { admitted: false, code: 'insufficient_credits', availableCredits: balance.availableCredits };
      }
    },

    /** Success: charges the reservation, releases any rest, records the outputs. */
    async captureCredits(args: { generationId: string; outputs: Omit<OutputRow, 'generation_id'>[] }): Promise<void> {
      await knex.transaction(async (trx) => {
        const current = await repos.generations.findById(args.generationId, trx);
        if (!current) throw new Error(`generation ${args.generationId} does not exist`);
        const charged = current.reserved_credits;
        const done = await repos.generations.finish(
          args.generationId,
          { status: 'succeeded', chargedCredits: charged, refundedCredits: 0 },
          trx,
        );
        if (!done) return;
        await repos.generations.insertOutputs(
          args.outputs.map((o) => ({ ...o, generation_id: args.generationId })),
          trx,
        );
        if (done.environment === 'live' && done.reserved_credits > 0) {
          await ledger.captureCredits(trx, {
            organizationId: done.organization_id,
            generationId: done.id,
            reserved: done.reserved_credits,
            charged,
          });
        }
      });
    },

    /** Failure or cancel: the whole reservation goes back. */
    async refundCredits(args: {
      generationId: string;
      status: 'failed' | 'canceled';
      errorCode?: string;
      errorMessage?: string;
    }): Promise<void> {
      await knex.transaction(async (trx) => {
        const current = await repos.generations.findById(args.generationId, trx);
        if (!current) throw new Error(`generation ${args.generationId} does not exist`);
        const done = await repos.generations.finish(
          args.generationId,
          {
            status: args.status,
            chargedCredits: 0,
            refundedCredits: current.reserved_credits,
            errorCode: args.errorCode,
            errorMessage: args.errorMessage,
          },
          trx,
        );
        if (!done || done.environment !== 'live' || done.reserved_credits === 0) return;
        await ledger.refundCredits(trx, {
          organizationId: done.organization_id,
          generationId: done.id,
          amount: done.reserved_credits,
        });
      });
    },
  };
}
