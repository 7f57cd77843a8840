import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream } from 'node:fs';

// One long-running child of the production stack (the Temporal server, the UI, an API, a worker):
// its output goes to a log file, it is ready when its spec says so, and it can be killed with any
// signal and started again, which is what the cross-process tests do to workers and APIs.

export interface ManagedProcess {
  readonly name: string;
  /** The running process's id; a restart changes it. */
  readonly pid: number;
  readonly logFile: string;
  /**
   * Sends `signal` (SIGTERM by default, then SIGKILL if it has not exited within the spec's stop
   * timeout); resolves once it has exited. Does nothing if it is not running.
   */
  kill(signal?: NodeJS.Signals): Promise<void>;
  /** Stops it if it runs, then starts it again as before; resolves once it is ready. */
  restart(): Promise<void>;
  alive(): boolean;
}

export type Readiness =
  /** A line the process prints once ready, e.g. `"worker polling"`. */
  | { line: string }
  /** Polled until it answers true, e.g. an HTTP health check. */
  | { probe: () => Promise<boolean> };

export interface ProcessSpec {
  name: string;
  command: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  logFile: string;
  ready: Readiness;
  readyTimeoutMs: number;
  /** How long a SIGTERM may take before SIGKILL; the Temporal server drains for a while. */
  stopTimeoutMs?: number;
  /** An exit nobody asked for (a crash), for the stack's log. */
  onUnexpectedExit(description: string): void;
}

const TAIL_CHARS = 4_000;
const PROBE_INTERVAL_MS = 200;

// One `exit` listener for all children, not one each: if this process dies first (an uncaught
// error, process.exit), none of them outlives it.
const running = new Set<ChildProcess>();
let exitHookInstalled = false;
function killOnExit(child: ChildProcess): void {
  running.add(child);
  child.once('exit', () => running.delete(child));
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const each of running) each.kill('SIGKILL');
  });
}

function isRunning(child: ChildProcess): boolean {
  return child.pid !== undefined && child.exitCode === null && child.signalCode === null;
}

/** Starts the process and resolves once it is ready; rejects (and kills it) if it is not in time. */
export async function startManagedProcess(spec: ProcessSpec): Promise<ManagedProcess> {
  let child: ChildProcess;
  let exited: Promise<void>;
  let stopRequested = false;

  const launch = async (): Promise<void> => {
    stopRequested = false;
    const log = createWriteStream(spec.logFile, { flags: 'a' });
    log.write(`--- ${new Date().toISOString()} ${spec.command} ${spec.args.join(' ')}\n`);
    const current = spawn(spec.command, spec.args, { cwd: spec.cwd, env: spec.env, stdio: ['ignore', 'pipe', 'pipe'] });
    child = current;
    let tail = '';
    let sawReadyLine = false;
    let ready = false;
    const onData = (chunk: Buffer) => {
      log.write(chunk);
      const text = tail + chunk.toString();
      if ('line' in spec.ready && text.includes(spec.ready.line)) sawReadyLine = true;
      tail = text.slice(-TAIL_CHARS);
    };
    current.stdout?.on('data', onData);
    current.stderr?.on('data', onData);
    let spawnError: Error | undefined;
    current.once('error', (err) => (spawnError = err));
    exited = new Promise<void>((resolve) => {
      current.once('exit', () => resolve());
      current.once('error', () => resolve());
    });
    current.once('close', () => log.end());
    current.once('exit', (code, signal) => {
      if (ready && !stopRequested) spec.onUnexpectedExit(`${spec.name} (pid ${current.pid}) exited by itself (code ${code}, signal ${signal}); its log: ${spec.logFile}`);
    });
    killOnExit(current);

    const deadline = Date.now() + spec.readyTimeoutMs;
    for (;;) {
      if (spawnError) throw new Error(`${spec.name} could not start: ${spawnError.message}`);
      if (!isRunning(current)) throw new Error(`${spec.name} exited before it was ready (code ${current.exitCode}, signal ${current.signalCode}): ${tail.slice(-1500)}`);
      const isReady = 'line' in spec.ready ? sawReadyLine : await spec.ready.probe().catch(() => false);
      if (isReady && isRunning(current)) {
        ready = true;
        return;
      }
      if (Date.now() > deadline) {
        current.kill('SIGKILL');
        throw new Error(`${spec.name} was not ready after ${spec.readyTimeoutMs} ms; its log: ${spec.logFile}: ${tail.slice(-1500)}`);
      }
      await new Promise((resolve) => setTimeout(resolve, PROBE_INTERVAL_MS));
    }
  };

  const kill = async (signal: NodeJS.Signals = 'SIGTERM'): Promise<void> => {
    stopRequested = true;
    if (!isRunning(child)) return exited;
    child.kill(signal);
    const escalate = signal === 'SIGKILL' ? undefined : setTimeout(() => child.kill('SIGKILL'), spec.stopTimeoutMs ?? 10_000);
    await exited;
    clearTimeout(escalate);
  };

  await launch();
  return {
    name: spec.name,
    get pid() {
      return child.pid ?? -1;
    },
    logFile: spec.logFile,
    kill,
    async restart() {
      await kill();
      await launch();
    },
    alive: () => isRunning(child),
  };
}
