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

export function createGenerationsRepo(knex: Knex) {
  return {
    /**
     * A generation and its outputs in one query; `owner` limits it to one organization and
     * environment (decisions §3).
     */
    async findWithOutputs(
      id: string,
      owner?: { organizationId: string; environment: Environment },
      trx: Db = knex,
    ): Promise<{ generation: GenerationRow; outputs: OutputRow[] } | undefined> {
      const query = trx('generations as g')
        .select(
          'g.*',
          trx.raw(
            `coalesce((SELECT json_agg(o ORDER BY o.position) FROM generation_outputs o WHERE o.generation_id = g.id), '[]'::json) AS outputs`,
          ),
        )
        .where('g.id', id);
      if (owner) query.where({ 'g.organization_id': owner.organizationId, 'g.environment': owner.environment });
      const row = await query.first();
      if (!row) return undefined;
      const { outputs, ...generation } = row;
      return { generation: generation as GenerationRow, outputs: outputs as OutputRow[] };
    },

    async findById(id: string, trx: Db = knex): Promise<GenerationRow | undefined> {
      return trx('generations').where({ id }).first();
    },

    async markRunning(id: string, trx: Db = knex): Promise<void> {
      await trx('generations')
        .where({ id, status: 'queued' })
        .update({ status: 'running', started_at: trx.fn.now() });
    },

    /**
     * Moves a non-terminal generation to `succeeded`, charging its whole reservation. Returns the
     * updated row, or undefined when it was already terminal (a retried activity, or a race lost
     * to another outcome).
     */
    async finishSucceeded(id: string, trx: Db = knex): Promise<GenerationRow | undefined> {
      const [row] = await trx('generations')
        .where({ id })
        .whereIn('status', ['queued', 'running'])
        .update({ status: 'succeeded', charged_credits: trx.raw('reserved_credits'), refunded_credits: 0, finished_at: trx.fn.now() })
        .returning('*');
      return row;
    },

    /** Moves a non-terminal generation to `failed` or `canceled`, refunding its whole reservation. */
    async finishUnsuccessful(
      id: string,
      outcome: { status: 'failed' | 'canceled'; errorCode?: string; errorMessage?: string },
      trx: Db = knex,
    ): Promise<GenerationRow | undefined> {
      const [row] = await trx('generations')
        .where({ id })
        .whereIn('status', ['queued', 'running'])
        .update({
          status: outcome.status,
          charged_credits: 0,
          refunded_credits: trx.raw('reserved_credits'),
          error_code: outcome.errorCode ?? null,
          error_message: outcome.errorMessage ?? null,
          finished_at: trx.fn.now(),
        })
        .returning('*');
      return row;
    },

    async insertOutputs(outputs: OutputRow[], trx: Db = knex): Promise<void> {
      if (outputs.length === 0) return;
      await trx('generation_outputs').insert(outputs).onConflict(['generation_id', 'position']).ignore();
    },
  };
}

export type GenerationsRepo = ReturnType<typeof createGenerationsRepo>;
