import type { Knex } from 'knex';
import type { Environment, GenerationStatus } from '../../domain/generation-status';
import type { Modality } from '../../domain/modalities';
import type { PricingSnapshot } from '../../domain/pricing';
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
  provider_job_id?: string | null;
  /** Provenance (db/migrations/0014-providers.ts): what served it, and every provider call that ended. */
  provider?: string | null;
  provider_model?: string | null;
  /** Whose key submitted `provider_job_id` (db/migrations/0018-provider-key-owner.ts). */
  provider_key_owner?: 'own' | 'platform' | null;
  attempts?: ProviderAttempt[];
  error_source?: 'provider' | 'gateway' | null;
  retryable?: boolean | null;
  provider_job_submitted_at?: Date | null;
  output_text?: string | null;
  /** Set for a comparison's child (db/migrations/0010-comparisons.ts). */
  comparison_id?: string | null;
  /** The price it was admitted at (db/migrations/0027-pricing-snapshots.ts); null before snapshots. */
  pricing?: PricingSnapshot | null;
  /** The `Cancel-After` deadline (db/migrations/0025-deadlines.ts); null without one. */
  deadline_at?: Date | null;
  /** When its outputs expire (output retention); null: never. Read with its outputs. */
  outputs_expire_at?: Date | null;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
}

/** One provider call that ended, as the Generation's `attempts` show it (decisions §7). */
export interface ProviderAttempt {
  provider: string;
  model: string;
  /** `canceled`: the generation was cancelled while the call ran, and the call was stopped. */
  outcome: 'succeeded' | 'failed' | 'canceled';
  error_code?: string;
  duration_ms: number;
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
  /** When the retention sweep or DELETE .../outputs removed its file; the row stays. */
  deleted_at?: Date | string | null;
}

export type NewGeneration = Pick<GenerationRow, 'id' | 'organization_id' | 'api_key_id' | 'environment' | 'modality' | 'model' | 'prompt' | 'params' | 'reserved_credits'> & {
  cache_key?: string | null;
  /**
   * The admission deadline (epoch ms) the API gave the caller: the reservation commits only before
   * it and only if the API has not given up first (db/migrations/0008-admission-claims.ts).
   */
  admit_by?: number | null;
  /** The month (`YYYY-MM-01`, UTC) whose budget the reservation counts against; default: the database's. */
  budget_period?: string | null;
  /** The price it is admitted at (domain/pricing-snapshot.ts); absent from inputs of workflows started before snapshots. */
  pricing?: PricingSnapshot | null;
  /** The `Cancel-After` deadline (epoch ms); null or absent: none. */
  deadline_at?: number | null;
};

/** When the generation's outputs expire (db/migrations/0026-output-retention.ts): null when never, or when it has no expiry row. */
export const OUTPUTS_EXPIRE_AT = '(SELECT x.expires_at FROM output_expiries x WHERE x.generation_id = g.id) AS outputs_expire_at';

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
          trx.raw(`coalesce((SELECT json_agg(o ORDER BY o.position) FROM generation_outputs o WHERE o.generation_id = g.id), '[]'::json) AS outputs`),
          trx.raw(OUTPUTS_EXPIRE_AT),
        )
        .where('g.id', id);
      if (owner) query.where({ 'g.organization_id': owner.organizationId, 'g.environment': owner.environment });
      const row = await query.first();
      if (!row) return undefined;
      const { outputs, ...generation } = row;
      return { generation: generation as GenerationRow, outputs: outputs as OutputRow[] };
    },

    /** A page of one organization's generations in one environment, newest first, with outputs. */
    async listPage(
      owner: { organizationId: string; environment: Environment },
      page: { limit: number; startingAfter?: GenerationRow; modality?: Modality; status?: GenerationStatus; model?: string; apiKeyId?: string },
      trx: Db = knex,
    ): Promise<{ rows: { generation: GenerationRow; outputs: OutputRow[] }[]; hasMore: boolean }> {
      const query = trx('generations as g')
        .select(
          'g.*',
          trx.raw(`coalesce((SELECT json_agg(o ORDER BY o.position) FROM generation_outputs o WHERE o.generation_id = g.id), '[]'::json) AS outputs`),
          trx.raw(OUTPUTS_EXPIRE_AT),
        )
        .where({ 'g.organization_id': owner.organizationId, 'g.environment': owner.environment })
        .orderBy([
          { column: 'g.created_at', order: 'desc' },
          { column: 'g.id', order: 'desc' },
        ])
        .limit(page.limit + 1);
      if (page.modality) query.where('g.modality', page.modality);
      if (page.status) query.where('g.status', page.status);
      if (page.model) query.where('g.model', page.model);
      if (page.apiKeyId) query.where('g.api_key_id', page.apiKeyId);
      if (page.startingAfter) query.whereRaw('(g.created_at, g.id) < (?, ?)', [page.startingAfter.created_at, page.startingAfter.id]);
      const rows = (await query) as (GenerationRow & { outputs: OutputRow[] })[];
      return {
        rows: rows.slice(0, page.limit).map(({ outputs, ...generation }) => ({ generation: generation as GenerationRow, outputs })),
        hasMore: rows.length > page.limit,
      };
    },

    /**
     * One page of the open (queued or running) generations created before `createdBefore`, oldest
     * first, after the generation `after` (the previous page's last id): the reconciler walks them
     * all in one pass, however many there are.
     */
    async listOpenPage(args: { createdBefore: Date; limit: number; after?: string | undefined }, trx: Db = knex): Promise<Pick<GenerationRow, 'id' | 'comparison_id'>[]> {
      const query = trx('generations')
        .select('id', 'comparison_id')
        .whereIn('status', ['queued', 'running'])
        .where('created_at', '<=', args.createdBefore)
        .orderBy([{ column: 'created_at' }, { column: 'id' }])
        .limit(args.limit);
      // The cursor is the row itself, not its timestamp as JavaScript reads it (milliseconds, where
      // Postgres keeps microseconds): no row is skipped or read twice between pages.
      if (args.after !== undefined) query.whereRaw('(created_at, id) > (select created_at, id from generations where id = ?)', [args.after]);
      return query;
    },

    async findById(id: string, trx: Db = knex): Promise<GenerationRow | undefined> {
      return trx('generations').where({ id }).first();
    },

    /**
     * Moves a queued generation to `running`, its provider call `call` open from now; false when it
     * was not queued (a re-run step, which opens its call with `openAttempt`).
     */
    async markRunning(id: string, call: ProviderCall, trx: Db = knex): Promise<boolean> {
      const updated = await trx('generations')
        .where({ id, status: 'queued' })
        .update({ status: 'running', started_at: trx.fn.now(), open_attempt: openAttemptOf(trx, call) });
      return updated > 0;
    },

    /**
     * Opens a re-run step's provider call on `call`; nothing once the generation is terminal. A call
     * left open on the row is either the one this continues (`resumes`: the queued job recorded
     * there, its call open since that job's submission) or one whose end nobody recorded (its
     * worker died, or lost the database and cancelled the job it could not record): that one goes to
     * `attempts` as failed with `internal_error`, open until now, so every call shows in provenance.
     */
    async openAttempt(id: string, call: ProviderCall, resumes?: { since?: Date | null }, trx: Db = knex): Promise<void> {
      await trx('generations')
        .where({ id })
        .whereIn('status', ['queued', 'running'])
        .update({
          ...(!resumes && { attempts: withOpenAttemptEnded(trx, 'failed', 'internal_error') }),
          open_attempt: openAttemptOf(trx, call, resumes?.since ?? undefined),
        });
    },

    /**
     * Moves a non-terminal generation to `succeeded`, charging its whole reservation: the UPDATE
     * ... RETURNING *, not yet sent, which a settlement sends in the statement that also locks the
     * reservation (db/ledger.ts, finishLockingReservation). It returns the updated row, or none when
     * the generation was already terminal (a retried activity, or a race lost to another outcome).
     * Usage-billed jobs (chat) are charged what they used, never more than was reserved; what was
     * reserved but not charged went back to the wallet (refunded_credits shows it). least()
     * ignores a NULL: without a usage-based charge, the whole reservation is charged.
     */
    finishSucceededStatement(
      id: string,
      result: { chargedCredits?: number; outputText?: string; usage?: Record<string, number | boolean>; served?: { provider: string; model: string } },
      trx: Db = knex,
    ): Knex.QueryBuilder {
      const charge = [result.chargedCredits ?? null];
      return trx('generations')
        .where({ id })
        .whereIn('status', ['queued', 'running'])
        .update({
          status: 'succeeded',
          charged_credits: trx.raw('least(reserved_credits, ?::bigint)', charge),
          refunded_credits: trx.raw('reserved_credits - least(reserved_credits, ?::bigint)', charge),
          output_text: result.outputText ?? null,
          usage: result.usage ? JSON.stringify(result.usage) : null,
          ...(result.served && { provider: result.served.provider, provider_model: result.served.model }),
          finished_at: trx.fn.now(),
          // The call that produced the result was recorded when it ended; one still open is another
          // executor's (a workflow task replayed elsewhere while its local activity ran), abandoned
          // with its task: it ends here as canceled, so every call shows in the provenance.
          attempts: withOpenAttemptEnded(trx, 'canceled', null),
          open_attempt: null,
        })
        .returning('*');
    },

    /**
     * Records a queued provider job on the row, with the route it runs on (a re-run resumes it only
     * there) as the provenance so far, and whose key submitted it (the one that may cancel it). On a route the generation has closed (it gave the route up
     * while the job was being submitted) nothing is recorded and this answers false: the submitter
     * must cancel the job itself.
     */
    async recordProviderJob(
      id: string,
      providerJobId: string,
      route?: { provider: string; model: string; key?: 'own' | 'platform'; index?: number },
      trx: Db = knex,
    ): Promise<boolean> {
      const index = route?.index;
      const query = trx('generations').where({ id });
      if (index !== undefined) {
        query.where((q) => {
          q.whereNull('provider_routes_closed_through').orWhere('provider_routes_closed_through', '<', index);
        });
      }
      const updated = await query.update({
        provider_job_id: providerJobId,
        provider_job_submitted_at: trx.fn.now(),
        ...(route && { provider: route.provider, provider_model: route.model, provider_key_owner: route.key ?? null }),
      });
      return updated > 0;
    },

    /**
     * Closes the generation's routes up to `routeIndex` (no job may be recorded on them from now on)
     * and answers the job recorded on the row, if any, for the caller to cancel.
     */
    async closeProviderRoutes(id: string, routeIndex: number, trx: Db = knex): Promise<Pick<GenerationRow, 'provider_job_id' | 'provider' | 'provider_model'> | undefined> {
      const [row] = await trx('generations')
        .where({ id })
        .update({ provider_routes_closed_through: trx.raw('greatest(provider_routes_closed_through, ?)', [routeIndex]) })
        .returning(['provider_job_id', 'provider', 'provider_model']);
      return row;
    },

    /** Forgets an abandoned provider job (cancelled before a fallback), so the next route submits anew. */
    async clearProviderJob(id: string, providerJobId: string, trx: Db = knex): Promise<void> {
      await trx('generations').where({ id, provider_job_id: providerJobId }).update({ provider_job_id: null, provider_job_submitted_at: null });
    },

    /**
     * Ends the open provider call as `attempt`, appended to the generation's provenance. Once a
     * settlement has ended it (an interrupted call, recorded with the generation's outcome), a step
     * that hears of its cancellation late records nothing more; rows from before open calls, still
     * running, are recorded as before.
     */
    async recordAttempt(id: string, attempt: ProviderAttempt, trx: Db = knex): Promise<void> {
      await trx('generations')
        .where({ id })
        .where((q) => {
          q.whereNotNull('open_attempt').orWhereIn('status', ['queued', 'running']);
        })
        .update({ attempts: trx.raw('attempts || ?::jsonb', [JSON.stringify([attempt])]), open_attempt: null });
    },

    /**
     * Moves a non-terminal generation to `failed` or `canceled`, refunding its whole reservation
     * (the UPDATE ... RETURNING *, not yet sent, as finishSucceededStatement).
     */
    finishUnsuccessfulStatement(
      id: string,
      outcome: { status: 'failed' | 'canceled'; errorCode?: string; errorMessage?: string; errorSource?: 'provider' | 'gateway'; retryable?: boolean },
      trx: Db = knex,
    ): Knex.QueryBuilder {
      return trx('generations')
        .where({ id })
        .whereIn('status', ['queued', 'running'])
        .update({
          status: outcome.status,
          charged_credits: 0,
          refunded_credits: trx.raw('reserved_credits'),
          error_code: outcome.errorCode ?? null,
          error_message: outcome.errorMessage ?? null,
          error_source: outcome.status === 'failed' ? (outcome.errorSource ?? null) : null,
          retryable: outcome.status === 'failed' ? (outcome.retryable ?? null) : null,
          finished_at: trx.fn.now(),
          // A provider call still open was interrupted by this outcome: it ends with it.
          attempts: withOpenAttemptEnded(trx, outcome.status === 'canceled' ? 'canceled' : 'failed', outcome.status === 'failed' ? (outcome.errorCode ?? null) : null),
          open_attempt: null,
        })
        .returning('*');
    },

    /**
     * The newest succeeded generation with this cache key in the scope, created after `since`, whose
     * outputs are all still there at `now`: one expired or deleted (output retention) is a miss.
     */
    async findCached(
      scope: { organizationId: string; environment: Environment; cacheKey: string; since: Date; now: Date },
      trx: Db = knex,
    ): Promise<{ generation: GenerationRow; outputs: OutputRow[] } | undefined> {
      const row = await trx('generations')
        .select('id')
        .where({ organization_id: scope.organizationId, environment: scope.environment, cache_key: scope.cacheKey, status: 'succeeded' })
        .where('created_at', '>', scope.since)
        .whereRaw('NOT EXISTS (SELECT 1 FROM generation_outputs o WHERE o.generation_id = generations.id AND o.deleted_at IS NOT NULL)')
        .whereRaw('NOT EXISTS (SELECT 1 FROM output_expiries x WHERE x.generation_id = generations.id AND x.expires_at <= ?)', [scope.now])
        .orderBy('created_at', 'desc')
        .first();
      return row ? this.findWithOutputs(row.id, undefined, trx) : undefined;
    },

    /**
     * A new, already succeeded generation that serves an earlier one's outputs (the files are
     * shared, not copied): no reservation, no charge. It carries no cache key of its own, so cache
     * hits are always served from the generation that actually ran.
     */
    async insertCacheHit(gen: NewGeneration, source: OutputRow[], newOutputId: () => string, trx: Db = knex): Promise<GenerationRow> {
      const [row] = await trx('generations')
        .insert({
          ...gen,
          params: JSON.stringify(gen.params),
          pricing: gen.pricing ? JSON.stringify(gen.pricing) : null,
          status: 'succeeded',
          reserved_credits: 0,
          charged_credits: 0,
          refunded_credits: 0,
          cache_hit: true,
          started_at: trx.fn.now(),
          finished_at: trx.fn.now(),
        })
        .returning('*');
      await this.insertOutputs(
        source.map((o) => ({
          id: newOutputId(),
          generation_id: gen.id,
          position: o.position,
          storage_key: o.storage_key,
          mime: o.mime,
          width: o.width,
          height: o.height,
          duration_s: o.duration_s,
        })),
        trx,
      );
      return row as GenerationRow;
    },

    async insertOutputs(outputs: OutputRow[], trx: Db = knex): Promise<void> {
      const statement = this.insertOutputsStatement(outputs, trx);
      if (statement) await statement;
    },

    /** `insertOutputs`'s statement, not yet sent (see events' appendStatement); undefined: no outputs. */
    insertOutputsStatement(outputs: OutputRow[], trx: Db = knex): Knex.QueryBuilder | undefined {
      if (outputs.length === 0) return undefined;
      return trx('generation_outputs').insert(outputs).onConflict(['generation_id', 'position']).ignore();
    },
  };
}

export type GenerationsRepo = ReturnType<typeof createGenerationsRepo>;

/** A route's provider and the provider's model: what a provider call runs on. */
export interface ProviderCall {
  provider: string;
  model: string;
}

/** `attempts` with the row's open call, if any, appended as ended now with `outcome`. */
function withOpenAttemptEnded(trx: Db, outcome: ProviderAttempt['outcome'], errorCode: string | null): Knex.Raw {
  return trx.raw(
    `CASE WHEN open_attempt IS NULL THEN attempts ELSE attempts || jsonb_build_array(jsonb_strip_nulls(jsonb_build_object(
       'provider', open_attempt->'provider', 'model', open_attempt->'model', 'outcome', ?::text, 'error_code', ?::text,
       'duration_ms', greatest(0, round(extract(epoch from now() - (open_attempt->>'started_at')::timestamptz) * 1000))::int))) END`,
    [outcome, errorCode],
  );
}

function openAttemptOf(trx: Db, call: ProviderCall, since?: Date): Knex.Raw {
  return trx.raw(`jsonb_build_object('provider', ?::text, 'model', ?::text, 'started_at', coalesce(?::timestamptz, now()))`, [call.provider, call.model, since ?? null]);
}
