import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { workerProcessEnv } from '../../worker/process-defaults';
import { PROVIDER_DOUBLE_ENV, PROVIDER_DOUBLES_API, PROVIDER_DOUBLES_WORKER } from './provider-doubles';
import { stack } from './stack';

const ROOT = path.resolve(__dirname, '..', '..');

function childEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const { config } = stack();
  return {
    PATH: process.env.PATH,
    DATABASE_URL: config.databaseUrl,
    TEMPORAL_ADDRESS: config.temporalAddress,
    LOCAL_STORAGE_DIR: config.localStorageDir,
    // As the stack's own: every real provider configured, and stood in for in the worker.
    PROVIDER_MODE: 'live',
    ...PROVIDER_DOUBLE_ENV,
    LOG_LEVEL: 'info',
    // As the stack's API: `API_EMBEDDED_WORKER=false npm test` runs every API without its own worker.
    API_EMBEDDED_WORKER: String(config.apiEmbeddedWorker),
    // No metrics listeners: several of these run at once, and `npm start` may hold the default ports.
    API_METRICS_PORT: '0',
    WORKER_METRICS_PORT: '0',
    ...extra,
  };
}

/** Runs `entry` (a worker's entry or api/main.ts) as a real child process; resolves once `ready` is logged. */
async function spawnService(entry: string, env: NodeJS.ProcessEnv, ready: string): Promise<ChildProcess> {
  // node --import tsx, not the tsx CLI: the CLI forks again, and a kill must reach the service itself.
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, entry)], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes(ready)) resolve();
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${entry} exited early (${code}): ${output.slice(-2000)}`)));
  });
  return child;
}

/**
 * `npm run worker` as a real child process on `taskQueue`, with the real providers stood in for
 * (test/helpers/provider-doubles-worker.ts), resolved once it polls; `env` adds settings.
 */
export function spawnWorkerProcess(taskQueue: string, env: Record<string, string> = {}): Promise<ChildProcess> {
  return spawnService(PROVIDER_DOUBLES_WORKER, childEnv({ TEMPORAL_TASK_QUEUE: taskQueue, ...workerProcessEnv({}), ...env }), '"worker polling"');
}

/**
 * `npm run api` as a real child process on `port`, resolved once it listens; `env` adds settings.
 * Its own sync worker, when API_EMBEDDED_WORKER is on, has the real providers stood in for.
 */
export function spawnApiProcess(port: number, env: Record<string, string> = {}): Promise<ChildProcess> {
  return spawnService(
    PROVIDER_DOUBLES_API,
    childEnv({ PORT: String(port), URL_SIGNING_SECRET: 'test-url-signing-secret', ADMIN_TOKEN: stack().adminToken, TEMPORAL_TASK_QUEUE: stack().config.taskQueue, ...env }),
    '"api listening"',
  );
}

export async function killHard(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await gone;
}
