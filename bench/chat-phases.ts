import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { startBenchApi } from './lib/api-process';
import { startBenchStack } from './lib/embedded-stack';
import { startFakeUpstream } from './lib/fake-upstream';
import { runBenchmark, type BenchReport, type ErrorLog, type TargetResult } from './lib/harness';
import { postJson, requestJson } from './lib/http-client';
import { startOtlpReceiver, type ReceivedSpan } from './lib/otlp-receiver';
import { percentile, runLoad } from './lib/stats';
import { startBenchWorker } from './lib/worker-process';

// npm run bench:chat-phases — where the time of one sync chat request goes (issue 40, item 3), on
// the same stack as bench:chat (API and worker each in its own process, a fake OpenAI-compatible
// upstream answering at once). Both processes trace (OTEL_EXPORTER_OTLP_ENDPOINT to an in-bench
// receiver, bench/lib/otlp-receiver.ts), so every Postgres statement inside a request is a pg span,
// every activity a RunActivity span, the client's Temporal call and the provider call spans of their
// own. Per request, at c=1 and c=8, it prints:
// - the statements (BEGIN and COMMIT included) each process sent, and their time;
// - each span name's count and p50 duration;
// - the hand-offs: the time between the API's Temporal call and the first activity, between one
//   activity's end and the next one's start (a local activity's result going back to the workflow,
//   a workflow task, the next local activity scheduled), and from the last activity to the answer;
// - the log lines each process wrote per request;
// - the workflow history's events of one request (its workflow task round trips).
// Tracing costs time itself, so the latencies here are not bench:chat's: this bench says where
// time goes, bench:chat says how much there is. BENCH_SCALE multiplies the request counts.

const scale = Number(process.env.BENCH_SCALE ?? 1);
const MODEL = 'llama-3.3-70b';
const BODY = { model: MODEL, messages: [{ role: 'user', content: 'Name three colours of the sea at dawn.' }], max_tokens: 64 };
const CONCURRENCIES = [1, 8] as const;
const SERVICES = { api: 'generation-service-api', worker: 'generation-service-worker' };

const sortedP = (xs: number[], q: number) =>
  percentile(
    [...xs].sort((a, b) => a - b),
    q,
  );
const mean = (xs: number[]) => (xs.length === 0 ? NaN : xs.reduce((a, b) => a + b, 0) / xs.length);
const r2 = (x: number) => Math.round(x * 100) / 100;

async function lineCount(file: string): Promise<number> {
  return (await readFile(file, 'utf8').catch(() => '')).split('\n').filter(Boolean).length;
}

/** Waits until no span has arrived for `quietMs` (the exporters batch every OTEL_BSP_SCHEDULE_DELAY). */
async function spansSettled(spans: ReceivedSpan[], quietMs: number): Promise<void> {
  let seen = -1;
  while (seen !== spans.length) {
    seen = spans.length;
    await new Promise((resolve) => setTimeout(resolve, quietMs));
  }
}

/** One request's trace: its spans, rooted at the API's server span of POST /v1/chat. */
interface RequestTrace {
  root: ReceivedSpan;
  spans: ReceivedSpan[];
}

function requestTraces(spans: ReceivedSpan[], since: number): RequestTrace[] {
  const byTrace = new Map<string, ReceivedSpan[]>();
  for (const s of spans) byTrace.set(s.traceId, [...(byTrace.get(s.traceId) ?? []), s]);
  const traces: RequestTrace[] = [];
  for (const list of byTrace.values()) {
    const root = list.find((s) => s.service === SERVICES.api && s.parentSpanId === undefined);
    if (root && root.startMs >= since && root.name.includes('/v1/chat')) traces.push({ root, spans: list.sort((a, b) => a.startMs - b.startMs) });
  }
  return traces;
}

const isStatement = (s: ReceivedSpan) => s.attributes['db.system'] === 'postgresql';
const isActivity = (s: ReceivedSpan) => s.name.startsWith('RunActivity:');

/** The figures of one concurrency's requests. */
function breakdown(traces: RequestTrace[]) {
  const n = traces.length;
  const statements = (service: string) => traces.map((t) => t.spans.filter((s) => s.service === service && isStatement(s)));
  const statementFigures = (service: string) => {
    const per = statements(service);
    const texts = new Map<string, number>();
    for (const list of per) for (const s of list) texts.set(statementLabel(s), (texts.get(statementLabel(s)) ?? 0) + 1);
    return {
      perRequest: r2(mean(per.map((l) => l.length))),
      msPerRequestP50: r2(
        sortedP(
          per.map((l) => l.reduce((a, s) => a + s.endMs - s.startMs, 0)),
          0.5,
        ),
      ),
      byStatement: Object.fromEntries([...texts].sort((a, b) => b[1] - a[1]).map(([text, count]) => [text, r2(count / n)])),
    };
  };
  const names = new Map<string, number[]>();
  for (const t of traces)
    for (const s of t.spans)
      if (!isStatement(s))
        names.set(`${s.service === SERVICES.api ? 'api' : 'worker'} ${s.name}`, [
          ...(names.get(`${s.service === SERVICES.api ? 'api' : 'worker'} ${s.name}`) ?? []),
          s.endMs - s.startMs,
        ]);
  const spans = Object.fromEntries([...names].map(([name, ds]) => [name, { perRequest: r2(ds.length / n), p50Ms: r2(sortedP(ds, 0.5)) }]));

  // The hand-offs: gaps in the request's timeline between the pieces that do work.
  const gaps = new Map<string, number[]>();
  const addGap = (label: string, ms: number) => gaps.set(label, [...(gaps.get(label) ?? []), ms]);
  for (const t of traces) {
    const activities = t.spans.filter(isActivity);
    const temporalCall = t.spans.find((s) => s.service === SERVICES.api && /Workflow/.test(s.name) && !s.name.startsWith('RunWorkflow'));
    if (activities.length === 0) continue;
    const first = activities[0]!;
    if (temporalCall) addGap(`API's Temporal call starts -> ${first.name}`, first.startMs - temporalCall.startMs);
    for (let i = 1; i < activities.length; i++) addGap(`${activities[i - 1]!.name} ends -> ${activities[i]!.name}`, activities[i]!.startMs - activities[i - 1]!.endMs);
    const last = activities[activities.length - 1]!;
    addGap(`${last.name} ends -> the answer`, t.root.endMs - last.endMs);
    addGap('the whole request (server span)', t.root.endMs - t.root.startMs);
    addGap(
      'inside activities (sum)',
      activities.reduce((a, s) => a + s.endMs - s.startMs, 0),
    );
  }
  const handOffs = Object.fromEntries([...gaps].map(([label, xs]) => [label, { n: xs.length, p50Ms: r2(sortedP(xs, 0.5)), meanMs: r2(mean(xs)) }]));
  return { requests: n, statements: { api: statementFigures(SERVICES.api), worker: statementFigures(SERVICES.worker) }, spans, handOffs };
}

/** A statement's first words (BEGIN, COMMIT, the table it writes or reads), to count by kind. */
function statementLabel(s: ReceivedSpan): string {
  const text = String(s.attributes['db.statement'] ?? s.name)
    .replace(/\s+/g, ' ')
    .trim();
  const head = /^(begin|commit|rollback|savepoint|release)/i.exec(text)?.[0];
  if (head) return head.toUpperCase();
  const table = /(?:insert into|update|from|delete from)\s+"?([a-z_]+)"?/i.exec(text)?.[1];
  const verb = /^with|^select|^insert|^update|^delete/i.exec(text)?.[0]?.toUpperCase() ?? text.slice(0, 12);
  // An update says which columns it sets first: the generation's several updates are different steps.
  const cte = /^with\s+(?:recursive\s+)?([a-z_]+)/i.exec(text)?.[1];
  if (cte) return `WITH ${cte}... (${table ?? ''})`;
  const sets = /^update\s+"?[a-z_]+"?\s+set\s+"?([a-z_]+)"?/i.exec(text)?.[1];
  return `${verb} ${table ?? ''}${sets ? ` SET ${sets}` : ''}`.trim();
}

async function main(errors: ErrorLog): Promise<BenchReport> {
  const say = (line: string) => process.stderr.write(`[bench] ${line}\n`);
  const receiver = await startOtlpReceiver();
  const upstream = await startFakeUpstream('test/fakes/openai-server.ts');
  const providerEnv = { PROVIDER_MODE: 'live', OPENAI_COMPATIBLE_BASE_URL: upstream.baseUrl, OPENAI_COMPATIBLE_API_KEY: upstream.apiKey };
  // Every span exported, in batches a few times a second; the queue holds a whole phase's spans.
  const tracingEnv = { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, OTEL_BSP_SCHEDULE_DELAY: '200', OTEL_BSP_MAX_QUEUE_SIZE: '200000', OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '2000' };
  const stack = await startBenchStack(
    {
      providerMode: 'live',
      providerCredentials: { openai_compatible: { apiKey: upstream.apiKey, baseUrl: upstream.baseUrl } },
      providerBaseUrls: { openai_compatible: upstream.baseUrl },
    },
    { inProcessWorker: false },
  );
  const worker = await startBenchWorker(stack.config, stack.dir, { ...providerEnv, ...tracingEnv });
  const api = await startBenchApi(stack.config, stack.dir, { ...providerEnv, ...tracingEnv });
  const connection = await Connection.connect({ address: stack.config.temporalAddress! });
  try {
    return await worker.measuring(async () => {
      const admin = { Authorization: `Bearer ${stack.config.adminToken}` };
      const org = JSON.parse((await postJson(`${api.url}/admin/v1/organizations`, admin, { name: 'chat phases', plan: 'pro', credits: 100_000_000 })).body);
      await requestJson('PATCH', `${api.url}/admin/v1/organizations/${org.id}`, admin, { rate_limit_per_minute: 1_000_000 });
      const key = { Authorization: `Bearer ${org.api_keys.find((k: { environment: string }) => k.environment === 'live').secret}` };
      let lastId = '';
      const call = async () => {
        const res = await requestJson('POST', `${api.url}/v1/chat`, key, BODY, { timeoutMs: 30_000 });
        if (res.status !== 200) {
          errors.unexpected('POST /v1/chat', `HTTP ${res.status}: ${res.body.slice(0, 300)}`);
          return false;
        }
        lastId = (JSON.parse(res.body) as { id: string }).id;
        return true;
      };
      say('warming up');
      await runLoad(Math.max(10, Math.round(40 * scale)), 4, call);
      await spansSettled(receiver.spans, 1_000);

      const figures: Record<string, unknown> = {};
      const logs = { api: path.join(stack.dir, 'api.log'), worker: path.join(stack.dir, 'worker.log') };
      for (const c of CONCURRENCIES) {
        const total = Math.max(20, Math.round((c === 1 ? 100 : 400) * scale));
        say(`c=${c}: ${total} requests`);
        const since = Date.now();
        const linesBefore = { api: await lineCount(logs.api), worker: await lineCount(logs.worker) };
        const load = await runLoad(total, c, call);
        await spansSettled(receiver.spans, 1_000);
        const linesAfter = { api: await lineCount(logs.api), worker: await lineCount(logs.worker) };
        const traces = requestTraces(receiver.spans, since);
        figures[`c${c}`] = {
          ...breakdown(traces),
          latencyP50Ms: r2(sortedP(load.latenciesMs, 0.5)),
          logLinesPerRequest: { api: r2((linesAfter.api - linesBefore.api) / total), worker: r2((linesAfter.worker - linesBefore.worker) / total) },
        };
      }
      // One request's workflow history: its events, and so its workflow task round trips.
      const history = await new Client({ connection }).workflow.getHandle(lastId).fetchHistory();
      const events = (history.events ?? []).map((e) => (temporal.api.enums.v1.EventType[e.eventType ?? 0] ?? String(e.eventType)).replace(/^EVENT_TYPE_/, ''));
      figures.historyOfOneRequest = { events: events.length, eventTypes: events };
      console.log(JSON.stringify(figures, null, 2));
      return {
        targets: CONCURRENCIES.flatMap((c) => summaryRows(c, figures[`c${c}`] as ReturnType<typeof breakdown>)),
        figures,
        notes: [
          'API and worker each in its own process, both tracing to an in-bench OTLP receiver (tracing adds its own cost: latencies here are not bench:chat figures)',
          `statements are pg spans inside a request's trace (BEGIN and COMMIT count); BENCH_SCALE=${scale}`,
        ],
      };
    });
  } finally {
    await connection.close();
    await api.stop();
    await worker.stop();
    await stack.stop();
    await upstream.stop();
    await receiver.stop();
  }
}

/** The run's headline figures, as rows of the results table (figures, no target). */
function summaryRows(c: number, x: ReturnType<typeof breakdown>): TargetResult[] {
  const handOffs = Object.entries(x.handOffs)
    .map(([label, v]) => `${label} ${v.p50Ms} ms`)
    .join('; ');
  return [
    {
      name: `statements per sync chat request (BEGIN and COMMIT counted), c=${c}`,
      target: 'none (a figure)',
      result: `API ${x.statements.api.perRequest}, worker ${x.statements.worker.perRequest} (${Object.entries(x.statements.worker.byStatement)
        .map(([kind, n]) => `${kind} ${n}`)
        .join(', ')})`,
    },
    { name: `where a traced sync chat request's time goes (p50), c=${c}`, target: 'none (a figure)', result: handOffs },
  ];
}

runBenchmark('chat-phases', main);
