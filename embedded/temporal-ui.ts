import path from 'node:path';
import { startManagedProcess, type ManagedProcess } from './managed-process';
import { PROJECT_ROOT } from './temporal-cli';

// The Temporal UI server of the production topology, configured by config/temporal-ui/production.yaml
// (a template: its address, port and namespace come from the variables below).

export const TEMPORAL_UI_CONFIG_DIR = path.join('config', 'temporal-ui');

export interface TemporalUiOptions {
  binary: string;
  temporalAddress: string;
  port: number;
  namespace: string;
  logFile: string;
  onUnexpectedExit(description: string): void;
}

async function answers(url: string): Promise<boolean> {
  const response = await fetch(url, { signal: AbortSignal.timeout(1000) });
  await response.body?.cancel();
  return response.ok;
}

export async function startTemporalUi(opts: TemporalUiOptions): Promise<{ url: string; process: ManagedProcess }> {
  const url = `http://127.0.0.1:${opts.port}`;
  const ui = await startManagedProcess({
    name: 'temporal-ui',
    command: opts.binary,
    args: ['--root', PROJECT_ROOT, '--config', TEMPORAL_UI_CONFIG_DIR, '--env', 'production', 'start'],
    cwd: PROJECT_ROOT,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      TEMPORAL_ADDRESS: opts.temporalAddress,
      TEMPORAL_UI_IP: '127.0.0.1',
      TEMPORAL_UI_PORT: String(opts.port),
      TEMPORAL_DEFAULT_NAMESPACE: opts.namespace,
    },
    logFile: opts.logFile,
    ready: { probe: () => answers(url) },
    readyTimeoutMs: 30_000,
    onUnexpectedExit: opts.onUnexpectedExit,
  });
  return { url, process: ui };
}
