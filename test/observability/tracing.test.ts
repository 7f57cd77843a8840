import assert from 'node:assert/strict';
import { SpanKind } from '@opentelemetry/api';
import { Worker } from '@temporalio/worker';
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { loadConfig } from '../../config';
import { SPAN_ATTRIBUTES } from '../../observability/span-attributes';
import { startTracing } from '../../observability/start-tracing';
import type { Tracing } from '../../observability/tracing';
import { call, createOrganization, waitFor } from '../helpers/http';
import { stack } from '../helpers/stack';
import { startTracedServices, tracedWorkflowBundle } from '../helpers/traced-services';

// Traces (docs/operations.md, "Traces"): one request that creates a generation is one trace, from the
// API's server span through the workflow and its activities to the provider call. The API and the
// worker are the production ones (test/helpers/traced-services.ts), traced into memory.

const TASK_QUEUE = 'test-traced-generations';

describe('traces', function () {
  this.timeout(120_000);
  const exported = new InMemorySpanExporter();
  let tracing: Tracing;
  let services: Awaited<ReturnType<typeof startTracedServices>>;

  before(async () => {
    tracing = startTracing({ serviceName: 'generation-service-test', spanProcessor: new SimpleSpanProcessor(exported), instrumentModules: false });
    services = await startTracedServices(tracing, TASK_QUEUE);
  });

  after(async () => {
    await services?.stop();
    await tracing?.shutdown();
  });

  it('follows one request that creates a generation, in one trace, from the API through the workflow and its activities to the provider call', async () => {
    const org = await createOrganization();
    const res = await call('POST', '/v1/images', { key: org.liveKey, body: { model: 'flux-schnell', prompt: 'a traced lighthouse' }, baseUrl: services.apiUrl });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const generationId: string = res.body.id;
    const requestId = res.headers.get('x-request-id');

    // The workflow's spans leave the sandbox after its last task: wait for its run's span.
    const spans = await waitFor(
      async () => {
        const all = exported.getFinishedSpans();
        return all.some((s) => s.name === 'RunWorkflow:generationWorkflow' && s.attributes[SPAN_ATTRIBUTES.generationId] === generationId) && all;
      },
      30_000,
      "the workflow run's span",
    );

    const server = spans.find((s) => s.kind === SpanKind.SERVER && s.attributes[SPAN_ATTRIBUTES.requestId] === requestId);
    assert.ok(server, `a server span with request.id ${requestId}`);
    assert.equal(server.name, 'POST /v1/images');
    assert.equal(server.attributes['http.response.status_code'], 200);
    const traceId = server.spanContext().traceId;

    const ofGeneration = spans.filter((s) => s.attributes[SPAN_ATTRIBUTES.generationId] === generationId);
    assert.deepEqual([...new Set(ofGeneration.map((s) => s.spanContext().traceId))], [traceId], "every span of the generation is in the request's trace");

    const run = ofGeneration.find((s) => s.name === 'RunWorkflow:generationWorkflow')!;
    assert.equal(run.attributes[SPAN_ATTRIBUTES.organizationId], org.id);
    assert.equal(run.attributes[SPAN_ATTRIBUTES.model], 'flux-schnell');
    assert.equal(run.attributes[SPAN_ATTRIBUTES.modality], 'image');

    const activity = ofGeneration.find((s) => s.name === 'RunActivity:runProvider');
    assert.ok(activity, `an activity span of the generation among ${ofGeneration.map((s) => s.name).join(', ')}`);
    assert.equal(activity.attributes[SPAN_ATTRIBUTES.organizationId], org.id);

    const providerCall = ofGeneration.find((s) => s.name === 'provider.call');
    assert.ok(providerCall, 'a provider.call span');
    assert.equal(providerCall.attributes[SPAN_ATTRIBUTES.providerOperation], 'submit');
    assert.equal(providerCall.attributes[SPAN_ATTRIBUTES.model], 'flux-schnell');
    assert.equal(typeof providerCall.attributes[SPAN_ATTRIBUTES.provider], 'string');
    assert.equal(typeof providerCall.attributes[SPAN_ATTRIBUTES.providerModel], 'string');

    // Each span hangs from the one before it: provider call → activity → workflow → the API's start → the request.
    const chain = ancestry(providerCall, spans).map((s) => s.name);
    assert.deepEqual(chain.slice(0, 2), ['provider.call', 'RunActivity:runProvider']);
    // With API_EMBEDDED_WORKER the API starts a sync job eagerly (a plain start), else with Update-with-Start.
    const start = stack().apiDeps.syncStarts ? 'StartWorkflow:generationWorkflow' : 'UpdateWithStartWorkflow:admit';
    for (const name of ['RunWorkflow:generationWorkflow', start, 'POST /v1/images']) assert.ok(chain.includes(name), `${name} in ${chain.join(' ← ')}`);
    assert.equal(chain.at(-1), 'POST /v1/images', 'the server span is the root');

    // No prompt text on any span, and only values a span attribute may have: no WorkflowInfo objects
    // (memo, search attributes) copied onto the workflow's spans.
    for (const span of spans) {
      assert.ok(!JSON.stringify(span.attributes).includes('traced lighthouse'), `${span.name} carries no prompt`);
      for (const [name, value] of Object.entries(span.attributes))
        assert.ok(value === undefined || typeof value !== 'object' || Array.isArray(value), `${span.name}: ${name} is an object`);
    }
  });

  it('records workflow runs that replay on the untraced workflow code as on the traced', async () => {
    const org = await createOrganization();
    const res = await call('POST', '/v1/images', { key: org.liveKey, body: { model: 'flux-schnell', prompt: 'a replayed lighthouse' }, baseUrl: services.apiUrl });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const handle = stack().temporal.workflow.getHandle(res.body.id);
    await handle.result();
    const history = await handle.fetchHistory();
    // Throws a DeterminismViolationError if the trace headers or the interceptors changed the commands.
    await Worker.runReplayHistory({ workflowBundle: stack().workflowBundle }, history, res.body.id);
    await Worker.runReplayHistory({ workflowBundle: await tracedWorkflowBundle() }, history, res.body.id);
  });
});

/** The span, its parent, its parent's parent, ... as far as the exported spans go. */
function ancestry(span: ReadableSpan, spans: ReadableSpan[]): ReadableSpan[] {
  const byId = new Map(spans.map((s) => [s.spanContext().spanId, s]));
  const chain = [span];
  for (let parent = span.parentSpanId && byId.get(span.parentSpanId); parent; parent = parent.parentSpanId && byId.get(parent.parentSpanId)) chain.push(parent);
  return chain;
}

describe('tracing switch', () => {
  it('is off unless OTEL_EXPORTER_OTLP_ENDPOINT is set, and off when OTEL_SDK_DISABLED is true', () => {
    assert.equal(loadConfig({}).otlpTracing, false);
    assert.equal(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }).otlpTracing, true);
    assert.equal(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_SDK_DISABLED: 'true' }).otlpTracing, false);
  });
});
