import { createHash, timingSafeEqual } from 'node:crypto';
import type Koa from 'koa';
import { ApiError } from '../errors';
import type { AppState } from '../context';
import { bearerToken } from './bearer-token';

const digest = (value: string) => createHash('sha256').update(value).digest();

/** The operator API's bearer check: constant time, and closed when no ADMIN_TOKEN is set. */
export function adminAuth(adminToken: string | undefined): Koa.Middleware<AppState> {
  const expected = adminToken ? digest(adminToken) : undefined;
  return async (ctx, next) => {
    const header = ctx.get('Authorization');
    if (!header) {
      throw new ApiError('missing_authorization', 'No admin token provided. Send Authorization: Bearer $ADMIN_TOKEN.');
    }
    const token = bearerToken(header);
    if (!token) {
      throw new ApiError('invalid_authorization', 'The Authorization header must have the form Bearer <ADMIN_TOKEN>.');
    }
    if (!expected) {
      throw new ApiError('invalid_api_key', 'The operator API is disabled: start the service with ADMIN_TOKEN set.');
    }
    if (!timingSafeEqual(digest(token), expected)) {
      throw new ApiError('invalid_api_key', 'The admin token is not valid.');
    }
    await next();
  };
}
