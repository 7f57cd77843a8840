import type { Knex } from 'knex';
import { effectiveRole } from '../../domain/access';
import type { Environment } from '../../domain/generation-status';
import type { Plan } from '../../domain/plans';
import type { Db } from '../knex';
import type { Role } from './users';

export interface ApiKeyRow {
  id: string;
  organization_id: string;
  user_id: string;
  name: string;
  environment: Environment;
  prefix: string;
  scopes: string[];
  monthly_budget_usd: number | null;
  ip_allowlist: string[];
  /** The key's own cap on its role; null: the key has its user's role (decisions §3). */
  role: Role | null;
  created_at: Date;
  revoked_at: Date | null;
}

/** Every column but the secret's hash, which never leaves the database layer. */
const API_KEY_COLUMNS = [
  'id',
  'organization_id',
  'user_id',
  'name',
  'environment',
  'prefix',
  'scopes',
  'monthly_budget_usd',
  'ip_allowlist',
  'role',
  'created_at',
  'revoked_at',
] as const satisfies readonly (keyof ApiKeyRow)[];

/** A key with the role it acts with: the lower of its own and its user's (decisions §3). */
export type ApiKeyWithRole = ApiKeyRow & { effective_role: Role };

/** Keys joined with their creator, whose role they inherit. */
const withUserRole = (db: Db) =>
  db('api_keys as k')
    .join('users as u', 'u.id', 'k.user_id')
    .select([...API_KEY_COLUMNS.map((c) => `k.${c}`), 'u.role as user_role']);

const withEffectiveRole = ({ user_role, ...key }: ApiKeyRow & { user_role: Role }): ApiKeyWithRole => ({
  ...key,
  effective_role: effectiveRole(key.role, user_role),
});

export type NewApiKey = Pick<ApiKeyRow, 'id' | 'organization_id' | 'user_id' | 'name' | 'environment' | 'prefix'> & {
  secret_hash: string;
  scopes?: string[];
  monthly_budget_usd?: number | null;
  /** Omitted or null: the key has its user's role. */
  role?: Role | null;
};

/** What authentication learns about a request's key in one query. */
export interface KeyPrincipal {
  apiKeyId: string;
  keyPrefix: string;
  environment: Environment;
  scopes: string[];
  ipAllowlist: string[];
  /** What the key may do: the lower of `keyRole` and its user's role. */
  role: Role;
  /** The key's own cap (null: none); a key it creates inherits it unless it asks for less. */
  keyRole: Role | null;
  userId: string;
  organizationId: string;
  plan: Plan;
  enterprise: boolean;
  paused: boolean;
  /** The organization's override of RATE_LIMIT_PER_MINUTE, if any. */
  rateLimitPerMinute: number | null;
  /** Providers the organization brought its own keys for (BYOK, Enterprise). */
  ownProviders: string[];
}

export function createApiKeysRepo(knex: Knex) {
  return {
    async create(key: NewApiKey, trx: Db = knex): Promise<ApiKeyRow> {
      const [row] = await trx('api_keys').insert(key).returning(API_KEY_COLUMNS);
      return row as ApiKeyRow;
    },

    /** A key of this organization and environment, revoked or not (decisions §3: 404 otherwise). */
    async findOwned(id: string, owner: { organizationId: string; environment: Environment }, trx: Db = knex): Promise<ApiKeyWithRole | undefined> {
      const row = await withUserRole(trx).where({ 'k.id': id, 'k.organization_id': owner.organizationId, 'k.environment': owner.environment }).first();
      return row && withEffectiveRole(row);
    },

    /** Newest first; `startingAfter` is the id of the last key of the previous page. */
    async listPage(
      owner: { organizationId: string; environment: Environment },
      page: { limit: number; startingAfter?: ApiKeyRow },
      trx: Db = knex,
    ): Promise<{ rows: ApiKeyWithRole[]; hasMore: boolean }> {
      const query = withUserRole(trx)
        .where({ 'k.organization_id': owner.organizationId, 'k.environment': owner.environment })
        .orderBy([
          { column: 'k.created_at', order: 'desc' },
          { column: 'k.id', order: 'desc' },
        ])
        .limit(page.limit + 1);
      if (page.startingAfter) {
        query.whereRaw('(k.created_at, k.id) < (?, ?)', [page.startingAfter.created_at, page.startingAfter.id]);
      }
      const rows: (ApiKeyRow & { user_role: Role })[] = await query;
      return { rows: rows.slice(0, page.limit).map(withEffectiveRole), hasMore: rows.length > page.limit };
    },

    /** The key's monthly budget and what it spent in the last month it spent in (db/migrations/0012-usage.ts). */
    async budgetOf(id: string, trx: Db = knex): Promise<{ budgetUsd: number | null; period: string; spentCredits: number } | undefined> {
      const row = await trx('api_keys as k')
        .join('api_key_spend as s', 's.api_key_id', 'k.id')
        .where('k.id', id)
        .first('k.monthly_budget_usd', trx.raw(`to_char(s.period, 'YYYY-MM-DD') AS period`), 's.spent_credits');
      return row && { budgetUsd: row.monthly_budget_usd === null ? null : Number(row.monthly_budget_usd), period: row.period, spentCredits: Number(row.spent_credits) };
    },

    /** Credits each key spent in `period` (`YYYY-MM-01`): 0 for a key whose last spending month is another. */
    async spentIn(ids: string[], period: string, trx: Db = knex): Promise<Map<string, number>> {
      const rows: { api_key_id: string; spent_credits: string }[] =
        ids.length === 0 ? [] : await trx('api_key_spend').whereIn('api_key_id', ids).where('period', period).select('api_key_id', 'spent_credits');
      return new Map(rows.map((r) => [r.api_key_id, Number(r.spent_credits)]));
    },

    async update(id: string, changes: Partial<Pick<ApiKeyRow, 'name' | 'monthly_budget_usd' | 'ip_allowlist'>>, trx: Db = knex) {
      const [row] = await trx('api_keys').where({ id }).update(changes).returning(API_KEY_COLUMNS);
      return row as ApiKeyRow;
    },

    /** Revokes once; revoking again keeps the first revocation time. */
    async revoke(id: string, trx: Db = knex): Promise<ApiKeyRow> {
      const [row] = await trx('api_keys')
        .where({ id })
        .update({ revoked_at: trx.raw('coalesce(revoked_at, now())') })
        .returning(API_KEY_COLUMNS);
      return row as ApiKeyRow;
    },

    /**
     * The usable key with this secret hash, joined with its user and organization: not revoked, and
     * its user not deactivated (either answers 401 invalid_api_key).
     */
    async findPrincipalBySecretHash(secretHash: string, trx: Db = knex): Promise<KeyPrincipal | undefined> {
      const row = await trx('api_keys as k')
        .join('users as u', 'u.id', 'k.user_id')
        .join('organizations as o', 'o.id', 'k.organization_id')
        .where('k.secret_hash', secretHash)
        .whereNull('k.revoked_at')
        .whereNull('u.deactivated_at')
        .first(
          'k.id as api_key_id',
          'k.prefix',
          'k.environment',
          'k.scopes',
          'k.ip_allowlist',
          'k.role as key_role',
          'u.role as user_role',
          'u.id as user_id',
          'o.id as organization_id',
          'o.plan',
          'o.enterprise',
          'o.paused',
          'o.rate_limit_per_minute',
          // Stored keys serve only while the organization is Enterprise (BYOK is an Enterprise feature).
          trx.raw("case when o.enterprise then array(select pc.provider from provider_credentials pc where pc.organization_id = o.id) else '{}' end as own_providers"),
        );
      if (!row) return undefined;
      return {
        apiKeyId: row.api_key_id,
        keyPrefix: row.prefix,
        environment: row.environment,
        scopes: row.scopes,
        ipAllowlist: row.ip_allowlist,
        role: effectiveRole(row.key_role, row.user_role),
        keyRole: row.key_role,
        userId: row.user_id,
        organizationId: row.organization_id,
        plan: row.plan,
        enterprise: row.enterprise,
        paused: row.paused,
        rateLimitPerMinute: row.rate_limit_per_minute,
        ownProviders: row.own_providers ?? [],
      };
    },
  };
}

export type ApiKeysRepo = ReturnType<typeof createApiKeysRepo>;
