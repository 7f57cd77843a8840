import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { stack } from './stack';

const ROOT = path.resolve(__dirname, '..', '..');

/** `npm run worker` as a real child process on `taskQueue`, resolved once it polls. */
export async function spawnWorkerProcess(taskQueue: string): Promise<ChildProcess> {
  const { config } = stack();
  // node --import tsx, not the tsx CLI: the CLI forks again, and a kill must reach the worker itself.
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'worker', 'main.ts')], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      DATABASE_URL: config.databaseUrl,
      TEMPORAL_ADDRESS: config.temporalAddress,
      TEMPORAL_TASK_QUEUE: taskQueue,
      LOCAL_STORAGE_DIR: config.localStorageDir,
      PROVIDER_MODE: 'simulated',
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('"worker polling"')) resolve();
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`worker exited early (${code}): ${output.slice(-2000)}`)));
  });
  return child;
}

export async function killHard(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await gone;
}
