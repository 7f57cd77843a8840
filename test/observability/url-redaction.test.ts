import assert from 'node:assert/strict';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { dropUrlQueries } from '../../observability/url-redaction';

// The requestHook of the http and undici instrumentations (observability/start-tracing.ts), on the
// SDK's own spans: an outgoing call's span keeps its URL, without the token a query may carry.

describe('outgoing HTTP spans', () => {
  it('keep the URL called without its query string', () => {
    const exported = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exported)] });
    const attributes = {
      'url.full': 'https://cdn.example/outputs/a.png?token=secret-1',
      'url.query': '?token=secret-1',
      'http.url': 'https://queue.example/jobs/1?sig=secret-2',
      'url.path': '/outputs/a.png',
    };
    const span = provider.getTracer('test').startSpan('GET', { attributes });
    dropUrlQueries(span);
    span.end();
    const [finished] = exported.getFinishedSpans();
    assert.deepEqual(finished!.attributes, {
      'url.full': 'https://cdn.example/outputs/a.png',
      'url.query': '',
      'http.url': 'https://queue.example/jobs/1',
      'url.path': '/outputs/a.png',
    });
    assert.ok(!JSON.stringify(finished!.attributes).includes('secret'));
  });
});
