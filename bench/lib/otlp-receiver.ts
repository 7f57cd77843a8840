import http from 'node:http';
import type { AddressInfo } from 'node:net';

// A minimal OTLP/HTTP (JSON) trace receiver for benchmarks that ask where a request's time goes:
// the API and the worker export their spans here (observability/start-tracing.ts, the
// OTLPTraceExporter, JSON) when started with OTEL_EXPORTER_OTLP_ENDPOINT set to `endpoint`. It keeps
// every span in memory with its service name; it is not a collector (no protobuf, no retries).

export interface ReceivedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  startMs: number;
  endMs: number;
  attributes: Record<string, unknown>;
}

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  doubleValue?: number;
  boolValue?: boolean;
}
interface OtlpAttribute {
  key: string;
  value: OtlpValue;
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  startTimeUnixNano: string | number;
  endTimeUnixNano: string | number;
  attributes?: OtlpAttribute[];
}
interface OtlpExport {
  resourceSpans?: { resource?: { attributes?: OtlpAttribute[] }; scopeSpans?: { spans?: OtlpSpan[] }[] }[];
}

const valueOf = (v: OtlpValue) => v.stringValue ?? v.intValue ?? v.doubleValue ?? v.boolValue;
const attributesOf = (list: OtlpAttribute[] = []) => Object.fromEntries(list.map((a) => [a.key, valueOf(a.value)]));
/** Nanoseconds since the epoch (a decimal string) to milliseconds, keeping the sub-millisecond part. */
const toMs = (nanos: string | number) => Number(BigInt(nanos) / 1000n) / 1000;

export async function startOtlpReceiver(): Promise<{ endpoint: string; spans: ReceivedSpan[]; stop(): Promise<void> }> {
  const spans: ReceivedSpan[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as OtlpExport;
        for (const resourceSpans of body.resourceSpans ?? []) {
          const service = String(attributesOf(resourceSpans.resource?.attributes)['service.name'] ?? 'unknown');
          for (const scope of resourceSpans.scopeSpans ?? [])
            for (const s of scope.spans ?? [])
              spans.push({
                service,
                traceId: s.traceId,
                spanId: s.spanId,
                ...(s.parentSpanId && { parentSpanId: s.parentSpanId }),
                name: s.name,
                startMs: toMs(s.startTimeUnixNano),
                endMs: toMs(s.endTimeUnixNano),
                attributes: attributesOf(s.attributes),
              });
        }
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      } catch (err) {
        res.writeHead(400).end(String(err));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    spans,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
