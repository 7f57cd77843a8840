import path from 'node:path';
import { prepareTemporalDatabases } from '../../embedded/temporal-databases';
import { ensureNamespaces, freeTemporalServerPorts, startTemporalServer } from '../../embedded/temporal-prod-server';
import { findOrBuildTemporalServerBinaries, TEMPORAL_SERVER_VERSION } from '../../embedded/temporal-server-binaries';
import { startTemporalDevServer } from '../../embedded/temporal-server';
import { freePort } from '../../lib/free-port';

// The Temporal a benchmark runs on. BENCH_STACK=dev (the default) is the dev server `npm start` and
// `npm test` use: one binary on a SQLite file. BENCH_STACK=prod is the production mode's server
// (`npm run stack:prod`): the Temporal server built from the Go module, on the benchmark's own
// embedded Postgres, configured by config/temporal/production.yaml. Everything else in a benchmark
// (API, worker, load) stays the same, so the two sets of figures differ only in Temporal.

export type BenchStackKind = 'dev' | 'prod';

export function benchStackKind(): BenchStackKind {
  const kind = process.env.BENCH_STACK || 'dev';
  if (kind !== 'dev' && kind !== 'prod') throw new Error(`BENCH_STACK must be dev or prod, not ${kind}`);
  return kind;
}

export interface BenchTemporal {
  address: string;
  /** Says which Temporal the figures were measured on, for the benchmark's report. */
  label: string;
  stop(): Promise<void>;
}

export async function startBenchTemporal(opts: { dir: string; postgres: { superuserUrl: string; port: number }; log: (line: string) => void }): Promise<BenchTemporal> {
  if (benchStackKind() === 'dev') {
    const server = await startTemporalDevServer({ port: await freePort(), dbFilename: path.join(opts.dir, 'temporal.db'), log: opts.log });
    return { address: server.address, label: 'Temporal dev server (SQLite file)', stop: () => server.stop() };
  }
  const binaries = await findOrBuildTemporalServerBinaries(opts.log);
  await prepareTemporalDatabases({
    superuserUrl: opts.postgres.superuserUrl,
    host: '127.0.0.1',
    port: opts.postgres.port,
    sqlTool: binaries.sql,
    schemaDirs: binaries.schemaDirs,
    logFile: path.join(opts.dir, 'temporal-sql-tool.log'),
    log: opts.log,
  });
  const ports = await freeTemporalServerPorts([opts.postgres.port]);
  const server = await startTemporalServer({
    binary: binaries.server,
    ports,
    database: { host: '127.0.0.1', port: opts.postgres.port },
    logFile: path.join(opts.dir, 'temporal-server.log'),
    onUnexpectedExit: (description) => opts.log(description),
  });
  const address = `127.0.0.1:${ports.frontend}`;
  await ensureNamespaces(address, ['default'], opts.log);
  return { address, label: `Temporal server ${TEMPORAL_SERVER_VERSION} on the same Postgres (config/temporal/production.yaml)`, stop: () => server.kill() };
}
