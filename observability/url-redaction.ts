import type { Attributes, Span } from '@opentelemetry/api';

// Outgoing HTTP spans (the http and undici instrumentations, observability/start-tracing.ts) record
// the URL called. A provider's output link, and a signed URL of ours, carry a short-lived token in
// their query string: the spans keep the URL without its query.

const URL_ATTRIBUTES = ['url.full', 'http.url'];

/** An instrumentation's requestHook: drops the query from the URL attributes the span was started with. */
export function dropUrlQueries(span: Span): void {
  // The SDK's spans expose what they were started with; a non-recording span has nothing to redact.
  const attributes = (span as Partial<{ attributes: Attributes }>).attributes ?? {};
  for (const name of URL_ATTRIBUTES) {
    const url = attributes[name];
    if (typeof url === 'string' && url.includes('?')) span.setAttribute(name, url.slice(0, url.indexOf('?')));
  }
  if (attributes['url.query']) span.setAttribute('url.query', '');
}
