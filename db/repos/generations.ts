import type { Knex } from 'knex';
import type { Environment, GenerationStatus } from '../../domain/generation-status';
import type { Modality } from '../../domain/modalities';
import type { Db } from '../knex';

export interface GenerationRow {
  id: string;
  organization_id: string;
  api_key_id: string;
  environment: Environment;
  modality: Modality;
  model: string;
  status: GenerationStatus;
  prompt: string;
  params: Record<string, unknown>;
  reserved_credits: number;
  charged_credits: number;
  refunded_credits: number;
  cache_hit: boolean;
  error_code: string | null;
  error_message: string | null;
  usage: Record<string, number> | null;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
}

export interface OutputRow {
  id: string;
  generation_id: string;
  position: number;
  storage_key: string;
  mime: string;
  width: number | null;
  height: number | null;
  duration_s: string | null;
}

export type NewGeneration = Pick<
  GenerationRow,
  'id' | 'organization_id' | 'api_key_id' | 'environment' | 'modality' | 'model' | 'prompt' | 'params' | 'reserved_credits'
>;

export interface Finish {
  status: 'succeeded' | 'failed' | 'canceled';
  chargedCredits: number;
  refundedCredits: number;
  errorCode?: string;
  errorMessage?: string;
  usage?: Record<string, number>;
}

export function createGenerationsRepo(knex: Knex) {
  return {
    /** Inserts a queued generation; false when one with this id already exists. */
    async insertQueued(gen: NewGeneration, trx: Db = knex): Promise<boolean> {
      const rows = await trx('generations')
        .insert({ ...gen, status: 'queued', params: JSON.stringify(gen.params) })
        .onConflict('id')
        .ignore()
        .returning('id');
      return rows.length === 1;
    },

    async findById(id: string, trx: Db = knex): Promise<GenerationRow | undefined> {
      return trx('generations').where({ id }).first();
    },

    /** Visible only to its own organization and environment (decisions §3). */
    async findOwned(
      id: string,
      owner: { organizationId: string; environment: Environment },
      trx: Db = knex,
    ): Promise<GenerationRow | undefined> {
      return trx('generations')
        .where({ id, organization_id: owner.organizationId, environment: owner.environment })
        .first();
    },

    async markRunning(id: string, trx: Db = knex): Promise<void> {
      await trx('generations')
        .where({ id, status: 'queued' })
        .update({ status: 'running', started_at: trx.fn.now() });
    },

    /**
     * Moves a non-terminal generation to its terminal state. Returns the updated row, or undefined
     * when it was already terminal (a retried activity, or a race lost to another outcome).
     */
    async finish(id: string, finish: Finish, trx: Db = knex): Promise<GenerationRow | undefined> {
      const [row] = await trx('generations')
        .where({ id })
        .whereIn('status', ['queued', 'running'])
        .update({
          status: finish.status,
          charged_credits: finish.chargedCredits,
          refunded_credits: finish.refundedCredits,
          error_code: finish.errorCode ?? null,
          error_message: finish.errorMessage ?? null,
          usage: finish.usage ? JSON.stringify(finish.usage) : null,
          finished_at: trx.fn.now(),
        })
        .returning('*');
      return row;
    },

    async insertOutputs(outputs: OutputRow[], trx: Db = knex): Promise<void> {
      if (outputs.length === 0) return;
      await trx('generation_outputs').insert(outputs).onConflict(['generation_id', 'position']).ignore();
    },

    async listOutputs(generationId: string, trx: Db = knex): Promise<OutputRow[]> {
      return trx('generation_outputs').where({ generation_id: generationId }).orderBy('position');
    },
  };
}

export type GenerationsRepo = ReturnType<typeof createGenerationsRepo>;
