import { spawn } from 'node:child_process';
import { Connection } from '@temporalio/client';
import { findOrBuildTemporalCli } from './temporal-cli';
import { SEARCH_ATTRIBUTE_SPECS } from '../domain/search-attributes';
import { ensureSearchAttributes } from './search-attribute-registration';

/** gRPC status NOT_FOUND. */
const GRPC_NOT_FOUND = 5;

export interface TemporalDevServer {
  address: string;
  uiUrl: string | undefined;
  stop(): Promise<void>;
}

export interface TemporalDevServerOptions {
  port: number;
  uiPort?: number;
  /** Persist workflows across restarts; in memory when absent. */
  dbFilename?: string;
  log: (line: string) => void;
}

/**
 * Ready means a workflow call can find the namespace. DescribeNamespace reads the database directly
 * and succeeds seconds before the frontend's namespace cache does, so the probe asks about a
 * workflow that does not exist and waits for "workflow not found" instead of "namespace not found".
 */
export async function waitUntilServing(address: string, deadlineMs: number, namespace = 'default'): Promise<void> {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    let lastError: unknown;
    try {
      const connection = await Connection.connect({ address, connectTimeout: 1000 });
      try {
        await connection.workflowService.describeWorkflowExecution({
          namespace,
          execution: { workflowId: '__readiness_probe__' },
        });
        return;
      } catch (err) {
        const { code, message } = err as { code?: number; message?: string };
        if (code === GRPC_NOT_FOUND && !/namespace/i.test(message ?? '')) return;
        lastError = err;
      } finally {
        await connection.close();
      }
    } catch (err) {
      lastError = err;
    }
    if (Date.now() > deadline) throw new Error(`Temporal at ${address} did not serve namespace ${namespace}: ${String(lastError)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/**
 * Starts `temporal server start-dev` as a child process; without the CLI (and no Go to build it),
 * falls back to the server download that @temporalio/testing performs.
 */
export async function startTemporalDevServer(opts: TemporalDevServerOptions): Promise<TemporalDevServer> {
  const cli = await findOrBuildTemporalCli(opts.log);
  const address = `127.0.0.1:${opts.port}`;
  if (!cli) return startWithTestingPackage(opts);

  const args = ['server', 'start-dev', '--ip', '127.0.0.1', '--port', String(opts.port), '--log-level', 'error'];
  // The activity task rides back on the workflow task's completion: one server round trip less.
  args.push('--dynamic-config-value', 'system.enableActivityEagerExecution=true');
  // A sync generation's first workflow task comes back on its start call to the API's own worker
  // (API_EMBEDDED_WORKER): one matching hand-off less per request.
  args.push('--dynamic-config-value', 'system.enableEagerWorkflowStart=true');
  // New tasks go to one partition of each task queue: config/temporal/dynamicconfig/production.yaml says why.
  args.push('--dynamic-config-value', 'matching.numTaskqueueWritePartitions=1');
  // The service's search attributes (docs/operations.md, "Finding a job in the Temporal UI").
  for (const spec of SEARCH_ATTRIBUTE_SPECS) args.push('--search-attribute', spec);
  if (opts.uiPort) args.push('--ui-port', String(opts.uiPort));
  else args.push('--headless');
  if (opts.dbFilename) {
    // SQLite's default rollback journal fsyncs twice per commit and locks readers out; WAL with
    // synchronous=normal survives a crash of any process and loses at most the last commits on
    // power loss, which suits a developer's machine.
    args.push('--db-filename', opts.dbFilename);
    args.push('--sqlite-pragma', 'journal_mode=wal', '--sqlite-pragma', 'synchronous=normal', '--sqlite-pragma', 'busy_timeout=10000');
  }
  const child = spawn(cli, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const exited = new Promise<never>((_, reject) => child.once('exit', (code) => reject(new Error(`temporal server exited with ${code}: ${stderr}`))));
  exited.catch(() => undefined);
  await Promise.race([waitUntilServing(address, 60_000), exited]);
  // The flags apply to a new database only: one from before an attribute existed gets it here.
  if (opts.dbFilename) await Promise.race([ensureSearchAttributes(address, 'default', opts.log), exited]);

  return {
    address,
    uiUrl: opts.uiPort ? `http://localhost:${opts.uiPort}` : undefined,
    async stop() {
      process.off('exit', killOnExit);
      if (child.exitCode !== null) return;
      const gone = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await gone;
      clearTimeout(timer);
    },
  };
}

async function startWithTestingPackage(opts: TemporalDevServerOptions): Promise<TemporalDevServer> {
  opts.log('no temporal CLI and no Go: downloading a dev server through @temporalio/testing');
  const { TestWorkflowEnvironment } = await import('@temporalio/testing');
  const env = await TestWorkflowEnvironment.createLocal({
    server: {
      ip: '127.0.0.1',
      port: opts.port,
      ui: opts.uiPort !== undefined,
      uiPort: opts.uiPort,
      dbFilename: opts.dbFilename,
    },
  });
  await ensureSearchAttributes(`127.0.0.1:${opts.port}`, 'default', opts.log);
  return {
    address: `127.0.0.1:${opts.port}`,
    uiUrl: opts.uiPort ? `http://localhost:${opts.uiPort}` : undefined,
    stop: () => env.teardown(),
  };
}
