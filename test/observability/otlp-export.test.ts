import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import path from 'node:path';
import { freePort } from '../../lib/free-port';
import { randomBase62 } from '../../lib/ids';
import { SPAN_ATTRIBUTES } from '../../observability/span-attributes';
import { call, createOrganization, waitFor } from '../helpers/http';
import { spawnApiProcess, spawnWorkerProcess } from '../helpers/service-process';

// Traces as production exports them: `npm run api` and `npm run worker` as real processes, started
// with OTEL_EXPORTER_OTLP_ENDPOINT, send their spans by OTLP/HTTP (JSON) to a local receiver. Unlike
// the in-process test (tracing.test.ts), these processes start tracing before loading http and pg,
// so the instrumentations patch them: their spans are here too. And a process without the
// variable loads no OpenTelemetry SDK module and registers nothing.

const REPORT_TRACING_STATE = path.join(__dirname, 'report-tracing-state.cjs');

interface ReceivedSpan {
  service: string;
  scope: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  attributes: Record<string, unknown>;
}

interface OtlpAttribute {
  key: string;
  value: Record<string, unknown>;
}

function attributesOf(list: OtlpAttribute[] | undefined): Record<string, unknown> {
  return Object.fromEntries((list ?? []).map(({ key, value }) => [key, Object.values(value)[0]]));
}

/** An OTLP/HTTP receiver of JSON trace exports (POST /v1/traces), keeping every span it is sent. */
async function startOtlpReceiver(): Promise<{ url: string; spans: ReceivedSpan[]; close(): Promise<void> }> {
  const spans: ReceivedSpan[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/traces' || !req.headers['content-type']?.startsWith('application/json')) {
        res.writeHead(415).end();
        return;
      }
      for (const resourceSpans of JSON.parse(body).resourceSpans ?? []) {
        const service = String(attributesOf(resourceSpans.resource?.attributes)['service.name']);
        for (const scopeSpans of resourceSpans.scopeSpans ?? []) {
          for (const span of scopeSpans.spans ?? []) {
            spans.push({
              service,
              scope: scopeSpans.scope?.name,
              traceId: span.traceId,
              spanId: span.spanId,
              parentSpanId: span.parentSpanId ?? '',
              name: span.name,
              attributes: attributesOf(span.attributes),
            });
          }
        }
      }
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
    });
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${port}`, spans, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** Stops a service with SIGTERM, as an orchestrator does, and returns what its preload reported then. */
async function stopAndReport(child: ChildProcess): Promise<{ sdkModules: number; tracerProviderRegistered: boolean }> {
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
  const line = stderr.split('\n').find((l) => l.startsWith('tracing-state '));
  assert.ok(line, `the process reported its tracing state: ${stderr.slice(-1000)}`);
  return JSON.parse(line.slice('tracing-state '.length));
}

describe('traces exported by OTLP from the service processes', function () {
  this.timeout(180_000);
  const children: ChildProcess[] = [];
  let receiver: Awaited<ReturnType<typeof startOtlpReceiver>>;

  before(async () => {
    receiver = await startOtlpReceiver();
  });

  after(async () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await receiver?.close();
  });

  it('reach an OTLP/HTTP receiver from the API and the worker as one trace per request, with the spans of the modules the instrumentations patched (pg)', async () => {
    const queue = `otlp-${randomBase62(8)}`;
    const env = { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_BSP_SCHEDULE_DELAY: '100', NODE_OPTIONS: `--require ${REPORT_TRACING_STATE}` };
    const worker = await spawnWorkerProcess(queue, env);
    children.push(worker);
    const port = await freePort();
    // Without its own sync worker the API hands the job to the worker process, so the trace crosses
    // both; the eager path's spans are test/observability/tracing.test.ts's.
    const api = await spawnApiProcess(port, { ...env, TEMPORAL_TASK_QUEUE: queue, API_EMBEDDED_WORKER: 'false' });
    children.push(api);

    const org = await createOrganization();
    const res = await call('POST', '/v1/images', { key: org.liveKey, body: { model: 'flux-schnell', prompt: 'an exported lighthouse' }, baseUrl: `http://127.0.0.1:${port}` });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const requestId = res.headers.get('x-request-id');
    const generationId: string = res.body.id;

    const found = await waitFor(
      async () => {
        const server = receiver.spans.find((s) => s.attributes[SPAN_ATTRIBUTES.requestId] === requestId);
        const providerCall = receiver.spans.find((s) => s.name === 'provider.call' && s.attributes[SPAN_ATTRIBUTES.generationId] === generationId);
        const run = receiver.spans.find((s) => s.name === 'RunWorkflow:generationWorkflow' && s.attributes[SPAN_ATTRIBUTES.generationId] === generationId);
        return server && providerCall && run && { server, providerCall, run };
      },
      60_000,
      "the request's, the workflow's and the provider call's spans at the receiver",
    );
    const traceId = found.server.traceId;
    const trace = receiver.spans.filter((s) => s.traceId === traceId);
    assert.equal(found.server.service, 'generation-service-api');
    assert.equal(found.run.traceId, traceId, 'the workflow run is in the request trace');
    assert.equal(found.providerCall.traceId, traceId, 'the provider call is in the request trace');
    assert.equal(found.providerCall.service, 'generation-service-worker');
    assert.equal(found.run.attributes[SPAN_ATTRIBUTES.organizationId], org.id);

    const apiSpans = trace.filter((s) => s.service === 'generation-service-api');
    const workerSpans = trace.filter((s) => s.service === 'generation-service-worker');
    assert.ok(
      apiSpans.some((s) => s.scope === '@opentelemetry/instrumentation-pg'),
      `a pg span in the API's part of the trace: ${apiSpans.map((s) => `${s.scope}:${s.name}`).join(', ')}`,
    );
    assert.ok(
      workerSpans.some((s) => s.scope === '@opentelemetry/instrumentation-pg'),
      `a pg span in the worker's part of the trace: ${workerSpans.map((s) => `${s.scope}:${s.name}`).join(', ')}`,
    );
    assert.ok(
      workerSpans.some((s) => s.name === 'RunActivity:runProvider'),
      `the provider activity's span: ${workerSpans.map((s) => s.name).join(', ')}`,
    );

    // What the untraced processes below must not show, these show (so the probe can see it).
    for (const child of [api, worker]) {
      const state = await stopAndReport(child);
      assert.ok(state.sdkModules > 0 && state.tracerProviderRegistered, JSON.stringify(state));
    }
  });

  it("are reported in the service's JSON log lines when they cannot be exported (the collector down)", async () => {
    const closedPort = await freePort();
    const port = await freePort();
    const api = await spawnApiProcess(port, { OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${closedPort}`, OTEL_BSP_SCHEDULE_DELAY: '100' });
    children.push(api);
    let output = '';
    for (const stream of [api.stdout, api.stderr]) stream?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    assert.equal((await call('GET', '/healthz', { baseUrl: `http://127.0.0.1:${port}` })).status, 200);
    const line = await waitFor(async () => output.split('\n').find((l) => l.includes('"msg":"opentelemetry: ')), 30_000, "the SDK's export failure in the API's log");
    assert.equal(JSON.parse(line).level, 'error', line);
  });

  it('are not set up at all in processes without OTEL_EXPORTER_OTLP_ENDPOINT: no SDK module loaded, no tracer provider registered', async () => {
    const env = { NODE_OPTIONS: `--require ${REPORT_TRACING_STATE}` };
    const port = await freePort();
    const [worker, api] = await Promise.all([spawnWorkerProcess(`untraced-${randomBase62(8)}`, env), spawnApiProcess(port, env)]);
    children.push(worker, api);
    const org = await createOrganization();
    const res = await call('POST', '/v1/images', { key: org.liveKey, body: { model: 'flux-schnell', prompt: 'an untraced lighthouse' }, baseUrl: `http://127.0.0.1:${port}` });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    for (const child of [api, worker]) assert.deepEqual(await stopAndReport(child), { sdkModules: 0, tracerProviderRegistered: false });
  });
});
