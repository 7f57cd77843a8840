import { spawn } from 'node:child_process';
import path from 'node:path';

// A provider fake from test/fakes/ (fal-server.ts, openai-server.ts, ...) run as its own process,
// so that serving the provider's side costs the benchmark's process nothing. The fake prints one
// JSON line, {"baseUrl","apiKey"}, once it listens.

const ROOT = path.resolve(__dirname, '..', '..');
const READY_TIMEOUT_MS = 60_000;

export interface FakeUpstream {
  baseUrl: string;
  apiKey: string;
  pid: number;
  /** SIGTERM, and SIGKILL if it has not exited after 5 s. */
  stop(): Promise<void>;
}

export async function startFakeUpstream(entry: string, args: string[] = [], env: NodeJS.ProcessEnv = {}): Promise<FakeUpstream> {
  // node --import tsx, not the tsx CLI: the CLI forks again, and the kill must reach the fake itself.
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, entry), ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // If the benchmark dies first, the fake must not outlive it.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-2_000)));

  const announced = await new Promise<{ baseUrl: string; apiKey: string }>((resolve, reject) => {
    let stdout = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${entry} printed no address within ${READY_TIMEOUT_MS} ms: ${stderr}`));
    }, READY_TIMEOUT_MS);
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const line = stdout.split('\n').find((l) => l.startsWith('{') && l.includes('"baseUrl"'));
      if (!line) return;
      clearTimeout(timer);
      resolve(JSON.parse(line) as { baseUrl: string; apiKey: string });
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${entry} exited before it listened (code ${code}): ${stderr}`));
    });
  });

  return {
    ...announced,
    pid: child.pid!,
    async stop() {
      process.off('exit', killOnExit);
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const escalate = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(escalate);
    },
  };
}
