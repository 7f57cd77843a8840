import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import path from 'node:path';

// One of our services (api/main.ts, worker/main.ts) as a real child process, as `npm run api` or
// `npm run worker` would run it: its output goes to a log file, and an exit nobody asked for is
// reported, because a service that dies when a dependency goes away is a finding, not noise.

const ROOT = path.resolve(__dirname, '..', '..');
const TAIL_CHARS = 4_000;

export interface ServiceProcess {
  readonly pid: number;
  /** The last few thousand characters it wrote, for error messages. */
  tail(): string;
  /** SIGKILL, as a crash or an OOM kill would; resolves once it is gone. */
  kill(): Promise<void>;
  /** SIGTERM, and SIGKILL if it has not exited after 10 s. */
  stop(): Promise<void>;
}

export interface ServiceSpec {
  name: string;
  /** Entry point relative to the repository root. */
  entry: string;
  env: NodeJS.ProcessEnv;
  /** A log line that means "ready", e.g. `"worker polling"`. */
  ready: string;
  logFile: string;
  /** Called when the process exits without kill() or stop(). */
  onUnexpectedExit(description: string): void;
  readyTimeoutMs?: number;
}

export async function spawnService(spec: ServiceSpec): Promise<ServiceProcess> {
  // node --import tsx, not the tsx CLI: the CLI forks again, and a kill must reach the service itself.
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, spec.entry)], {
    cwd: ROOT,
    env: spec.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log = createWriteStream(spec.logFile, { flags: 'a' });
  let tail = '';
  let expected = false;
  let ready = false;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // If this script dies first, its services must not outlive it.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const onData = (chunk: Buffer) => {
    log.write(chunk);
    tail = (tail + chunk.toString()).slice(-TAIL_CHARS);
  };
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);
  child.once('exit', (code, signal) => {
    process.off('exit', killOnExit);
    log.end();
    if (ready && !expected) spec.onUnexpectedExit(`${spec.name} (pid ${child.pid}) exited by itself (code ${code}, signal ${signal}): ${tail.slice(-1500)}`);
  });

  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${spec.name} was not ready after ${spec.readyTimeoutMs ?? 120_000} ms: ${tail.slice(-1500)}`));
    }, spec.readyTimeoutMs ?? 120_000);
    const check = () => {
      if (!tail.includes(spec.ready)) return;
      clearTimeout(timer);
      ready = true;
      resolve();
    };
    child.stdout?.on('data', check);
    child.stderr?.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${spec.name} exited before it was ready (code ${code}): ${tail.slice(-1500)}`));
    });
  });

  const end = async (signal: NodeJS.Signals) => {
    expected = true;
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill(signal);
    const escalate = signal === 'SIGKILL' ? undefined : setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(escalate);
  };
  return {
    pid: child.pid!,
    tail: () => tail,
    kill: () => end('SIGKILL'),
    stop: () => end('SIGTERM'),
  };
}
