import type Koa from 'koa';
import type { AppState } from '../context';
import type { ErrorCode } from '../errors';
import { OpenAiFailure, openAiErrorBody, openAiErrorClassOf, openAiRetryForbidden, type OpenAiErrorCode } from '../openai/error-shape';
import { asApiError } from './error-handler';

/**
 * First in the chain of an OpenAI-compatible route (api/define-route.ts): renders every failure of the
 * route (its guards, body parser, idempotency handling and handler) in OpenAI's error shape
 * (api/openai/error-shape.ts), and so does an Idempotency-Key replay of a remembered refusal (a 402
 * is remembered in our shape by the idempotency middleware, which knows nothing of the route's shape).
 */
export function openAiErrors(): Koa.Middleware<AppState> {
  return async (ctx, next) => {
    try {
      await next();
    } catch (err) {
      if (err instanceof OpenAiFailure) return answer(ctx, err.code, err.message);
      const rendered = asApiError(ctx, err);
      ctx.set(rendered.headers ?? {});
      return answer(ctx, rendered.code, rendered.message, rendered.param);
    }
    const replayed = ourErrorIn(ctx.status, ctx.body);
    if (replayed) answer(ctx, replayed.code, replayed.message, replayed.param);
  };
}

function answer(ctx: Koa.ParameterizedContext<AppState>, code: OpenAiErrorCode, message: string, param?: string): void {
  ctx.status = openAiErrorClassOf(code).status;
  if (openAiRetryForbidden(code)) ctx.set('x-should-retry', 'false');
  ctx.body = openAiErrorBody(code, message, param);
}

/** Our error body (decisions §2) in an answer that was not thrown: a remembered answer replayed. */
function ourErrorIn(status: number, body: unknown): { code: ErrorCode; message: string; param?: string } | undefined {
  if (status < 400 || typeof body !== 'object' || body === null) return undefined;
  const error = (body as { error?: { code?: unknown; message?: unknown; param?: unknown; request_id?: unknown } }).error;
  if (!error || typeof error.request_id !== 'string' || typeof error.code !== 'string') return undefined;
  const code = error.code as ErrorCode;
  return { code, message: String(error.message), ...(typeof error.param === 'string' && { param: error.param }) };
}
