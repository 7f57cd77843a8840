import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

// Builds the dashboard (dashboard/ → dashboard/dist) with Vite, the step `npm ci` runs through the
// `prepare` script. `npm start` and the test fixture run it again so that edited sources are never
// served stale: a build takes about a second. Where Vite is not installed (a production image built
// with --omit=dev, which copies a dist built in an earlier stage), the existing build is used.

const ROOT = path.resolve(__dirname, '..');
const VITE_BIN = path.join(ROOT, 'node_modules', '.bin', 'vite');
const CONFIG = path.join(ROOT, 'dashboard', 'vite.config.mts');
const BUILT_PAGE = path.join(ROOT, 'dashboard', 'dist', 'index.html');

/** Builds the dashboard; resolves once dashboard/dist is complete. Throws with Vite's output on failure. */
export async function buildDashboard(log: (line: string) => void = () => {}): Promise<void> {
  if (!existsSync(VITE_BIN)) {
    if (existsSync(BUILT_PAGE)) return;
    throw new Error('The dashboard is not built and Vite is not installed: run `npm ci` (which builds it) or `npm run dashboard:build`.');
  }
  const started = Date.now();
  const output: string[] = [];
  await new Promise<void>((resolve, reject) => {
    const child = spawn(VITE_BIN, ['build', '--config', CONFIG], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, VITE_CONFIG_NATIVE_IGNORE_WARNING: 'true' },
    });
    child.stdout.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`The dashboard build failed (vite exited with ${code}):\n${output.join('')}`))));
  });
  log(`dashboard built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
