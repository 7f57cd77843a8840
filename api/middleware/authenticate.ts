import type Koa from 'koa';
import { environmentOfSecret, hashSecret } from '../../lib/api-key-secret';
import type { ApiKeysRepo } from '../../db/repos/api-keys';
import { ApiError } from '../errors';
import type { AppState } from '../context';

const BEARER = /^Bearer +(\S+)$/;

/** Spec §5's three 401s; on success the key's principal is on `ctx.state.principal`. */
export function authenticate(apiKeys: ApiKeysRepo): Koa.Middleware<AppState> {
  return async (ctx, next) => {
    const header = ctx.get('Authorization');
    if (!header) {
      throw new ApiError('missing_authorization', 'No API key provided. Send it as the header Authorization: Bearer <API_KEY>.');
    }
    const token = BEARER.exec(header)?.[1];
    if (!token) {
      throw new ApiError('invalid_authorization', 'The Authorization header must have the form Bearer <API_KEY>.');
    }
    const environment = environmentOfSecret(token);
    const principal = environment ? await apiKeys.findPrincipalBySecretHash(hashSecret(token)) : undefined;
    if (!principal || principal.environment !== environment) {
      throw new ApiError('invalid_api_key', 'The API key is unknown or has been revoked.');
    }
    ctx.state.principal = principal;
    await next();
  };
}

export function principalOf(ctx: { state: AppState }) {
  const principal = ctx.state.principal;
  if (!principal) throw new Error('route reached without authentication');
  return principal;
}
