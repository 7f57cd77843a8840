import type Koa from 'koa';
import { environmentOfSecret, hashSecret } from '../../domain/api-key-secret';
import { clientIp, ipInRanges, parseIpRange, type IpRange } from '../../lib/ip-ranges';
import { ApiError } from '../errors';
import { bearerToken } from './bearer-token';
import type { KeyPrincipal } from '../../db/repos/api-keys';
import type { ApiDeps, AppState } from '../context';

/**
 * Spec §5's three 401s and the key's IP allowlist (403 ip_not_allowed); on success the key's
 * principal is on `ctx.state.principal`.
 */
export function authenticate(deps: Pick<ApiDeps, 'principals' | 'trustedProxies'>): Koa.Middleware<AppState> {
  return async (ctx, next) => {
    const header = ctx.get('Authorization');
    if (!header) {
      throw new ApiError('missing_authorization', 'No API key provided. Send it as the header Authorization: Bearer <API_KEY>.');
    }
    const token = bearerToken(header);
    if (!token) {
      throw new ApiError('invalid_authorization', 'The Authorization header must have the form Bearer <API_KEY>.');
    }
    const environment = environmentOfSecret(token);
    const principal = environment ? await deps.principals.find(hashSecret(token)) : undefined;
    if (!principal || principal.environment !== environment) {
      throw new ApiError('invalid_api_key', 'The API key is unknown or has been revoked.');
    }
    if (principal.ipAllowlist.length > 0) {
      const ip = clientIp(ctx.req.socket.remoteAddress ?? '', ctx.get('X-Forwarded-For') || undefined, deps.trustedProxies);
      if (!ipInRanges(ip, allowlistOf(principal))) {
        throw new ApiError('ip_not_allowed', `This key only accepts requests from its IP allowlist, and ${ip} is not on it.`);
      }
    }
    ctx.state.principal = principal;
    await next();
  };
}

// A cached principal is reused across requests: parse its allowlist once, not per request.
const parsedAllowlists = new WeakMap<KeyPrincipal, IpRange[]>();

function allowlistOf(principal: KeyPrincipal): IpRange[] {
  let ranges = parsedAllowlists.get(principal);
  if (!ranges) {
    ranges = principal.ipAllowlist.map((r) => parseIpRange(r)).filter((r): r is IpRange => r !== undefined);
    parsedAllowlists.set(principal, ranges);
  }
  return ranges;
}

export function principalOf(ctx: { state: AppState }) {
  const principal = ctx.state.principal;
  if (!principal) throw new Error('route reached without authentication');
  return principal;
}
