import { ROOT_CONTEXT, SpanKind, SpanStatusCode, context, propagation, trace, type Tracer } from '@opentelemetry/api';
import type Koa from 'koa';
import { SPAN_ATTRIBUTES } from '../../observability/span-attributes';
import type { AppState } from '../context';

// The HTTP server span of a traced API (docs/operations.md, "Traces"): the root of the trace that the
// workflow, its activities and the provider calls join. Made here rather than by the http
// instrumentation so that it carries the request id, and so that it exists wherever the app runs
// (the tests run the API in a process whose modules no instrumentation can patch any more). A
// caller's W3C `traceparent` makes it a child of the caller's span.

/** First in the chain: everything else, the error handler included, runs inside the span. */
export function traceRequests(tracer: Tracer): Koa.Middleware<AppState> {
  return async (ctx, next) => {
    const parent = propagation.extract(ROOT_CONTEXT, ctx.headers);
    const span = tracer.startSpan(
      ctx.method,
      { kind: SpanKind.SERVER, attributes: { 'http.request.method': ctx.method, 'url.path': ctx.path, 'url.scheme': ctx.protocol } },
      parent,
    );
    try {
      await context.with(trace.setSpan(parent, span), next);
    } finally {
      // Set once the request has run: the request id and the route exist only then.
      const route = (ctx as { _matchedRoute?: unknown })._matchedRoute;
      if (typeof route === 'string') span.updateName(`${ctx.method} ${route}`).setAttribute('http.route', route);
      if (ctx.state.requestId) span.setAttribute(SPAN_ATTRIBUTES.requestId, ctx.state.requestId);
      span.setAttribute('http.response.status_code', ctx.status);
      if (ctx.status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    }
  };
}
