import type { Knex } from 'knex';
import { startPrincipalChangeListener } from '../../db/principal-changes';
import type { Repos } from '../../db/repos';
import type { Logger } from '../../lib/logger';
import { createPrincipalCache, type PrincipalCache } from './principal-cache';
import { createRateLimiter, type RateLimiter } from './rate-limiter';

export interface GuardServices {
  principals: PrincipalCache;
  rateLimiter: RateLimiter;
  close(): Promise<void>;
}

/** The per-process state behind the API key guards: the principal cache and the token leases. */
export async function startGuardServices(knex: Knex, repos: Repos, databaseUrl: string, logger: Logger): Promise<GuardServices> {
  const listener = await startPrincipalChangeListener(databaseUrl, logger);
  const principals = createPrincipalCache((hash) => repos.apiKeys.findPrincipalBySecretHash(hash), listener);
  const rateLimiter = createRateLimiter(knex, logger);
  return {
    principals,
    rateLimiter,
    async close() {
      await rateLimiter.close();
      await listener.close();
    },
  };
}
