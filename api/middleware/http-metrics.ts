import type Koa from 'koa';
import { metrics } from '../../observability/metrics';
import { countRefusedAdmission } from '../admission/admission-metrics';
import type { AppState } from '../context';
import { ERROR_CODES } from '../errors';
import { OPENAI_ONLY_CODES } from '../openai/error-shape';
import { routeOfRequest, UNMATCHED_ROUTE } from '../route-of-request';

/**
 * Counts every answered request, once, by route template, method, status and documented error code,
 * with its duration (observability/metrics.ts). It sits outside the error handler, so a failure is
 * counted as it was answered, with its code; labels are bounded (no path, no id).
 */
export function httpMetrics(): Koa.Middleware<AppState> {
  return async (ctx, next) => {
    const started = performance.now();
    try {
      await next();
    } finally {
      const route = routeOfRequest(ctx);
      const labels = { route: route?.template ?? UNMATCHED_ROUTE, method: METHODS.has(ctx.method) ? ctx.method : 'other', status: String(ctx.status) };
      const errorCode = errorCodeOf(ctx.status, ctx.body);
      metrics.httpRequests.inc({ ...labels, error_code: errorCode });
      metrics.httpRequestDuration.observe(labels, (performance.now() - started) / 1000);
      if (route && errorCode) countRefusedAdmission(route, errorCode, ctx.state.body);
    }
  };
}

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
const KNOWN_CODES = new Set<string>([...ERROR_CODES, ...OPENAI_ONLY_CODES]);

/** The documented code of an error answer (both error shapes carry it as `error.code`); '' on success. */
function errorCodeOf(status: number, body: unknown): string {
  if (status < 400) return '';
  const code = typeof body === 'object' && body !== null ? (body as { error?: { code?: unknown } }).error?.code : undefined;
  return typeof code === 'string' && KNOWN_CODES.has(code) ? code : 'unknown';
}
