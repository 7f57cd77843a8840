import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { metricsRegistry } from './metrics';

// The listener Prometheus scrapes: `GET /metrics` on a port of its own (API_METRICS_PORT,
// WORKER_METRICS_PORT), never on the public API port, so the service's internals are not served to
// the internet by accident. One response per process: our registry, then the Temporal SDK core's
// own exporter's text (bound to a loopback port, worker/sdk-runtime.ts) where the process runs a
// worker (the worker process, an API with its own sync worker), so each process is one scrape target.

export interface MetricsServer {
  /** http://<host>:<port>/metrics */
  url: string;
  close(): Promise<void>;
}

export interface MetricsServerOptions {
  port: number;
  /** Every interface by default, as the public port (Prometheus scrapes each container); tests bind 127.0.0.1. */
  host?: string;
  /** The SDK core's exporter (what ensureSdkRuntime returned): its text is fetched on each scrape and appended to ours. */
  sdkCoreMetricsAddress?: string | undefined;
}

export async function startMetricsServer(opts: MetricsServerOptions): Promise<MetricsServer> {
  const server = http.createServer((req, res) => {
    if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('Only GET /metrics is served here.\n');
      return;
    }
    scrape(opts.sdkCoreMetricsAddress).then(
      (text) => res.writeHead(200, { 'Content-Type': metricsRegistry.contentType }).end(text),
      (err: unknown) => res.writeHead(500, { 'Content-Type': 'text/plain' }).end(`metrics unavailable: ${String(err)}\n`),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    if (opts.host) server.listen(opts.port, opts.host, () => resolve());
    else server.listen(opts.port, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${opts.host ?? 'localhost'}:${port}/metrics`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function scrape(sdkCoreMetricsAddress: string | undefined): Promise<string> {
  const ours = await metricsRegistry.metrics();
  if (!sdkCoreMetricsAddress) return ours;
  const theirs = await fetchCoreMetrics(sdkCoreMetricsAddress);
  return `${ours.trimEnd()}\n${theirs}`;
}

/** The Temporal SDK core's Prometheus text, from the loopback exporter Runtime.install bound. */
async function fetchCoreMetrics(bindAddress: string): Promise<string> {
  const response = await fetch(`http://${bindAddress}/metrics`, { signal: AbortSignal.timeout(5_000) });
  if (!response.ok) throw new Error(`the Temporal SDK's metrics exporter answered ${response.status}`);
  return response.text();
}
