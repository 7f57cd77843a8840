import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { WorkerOptions } from '@temporalio/worker';

// The workflow bundle, built by webpack in a short-lived child process. Bundling in the worker's own
// process would keep webpack and its garbage in the worker's heap for its whole life (about 65 MB
// of RSS); the child exits and takes them with it. The bundle is still built from the code this
// process runs, at every start, so it can never be stale.

type WorkflowBundle = NonNullable<WorkerOptions['workflowBundle']>;

/**
 * What the production worker's bundle is built from: the workflow code, and the sandbox's settings.
 * Bench and test workers pass a workflowsPath of their own (bench/lib/bench-workflows.ts: the same
 * workflows and the benchmarks' floors); nothing else does.
 */
export const WORKFLOW_CODE = {
  workflowsPath: require.resolve('../workflows'),
  preloadModules: [require.resolve('../workflows/sandbox-stack-traces')],
};

/**
 * The workflow interceptors of a traced worker (observability/workflow-interceptors.ts). Bundled only
 * when the worker traces: an untraced worker's workflows run no tracing code at all.
 */
const TRACING_WORKFLOW_INTERCEPTORS = require.resolve('../observability/workflow-interceptors');

/** WORKFLOW_CODE with another workflowsPath (bench and test workers only), and the tracing interceptors when `traced`. */
export function workflowCode(
  workflowsPath: string = WORKFLOW_CODE.workflowsPath,
  opts: { traced?: boolean } = {},
): typeof WORKFLOW_CODE & { workflowInterceptorModules: string[] } {
  return { ...WORKFLOW_CODE, workflowsPath, workflowInterceptorModules: opts.traced ? [TRACING_WORKFLOW_INTERCEPTORS] : [] };
}

/** The bundler's logger: only its warnings and errors, to stderr. */
export const BUNDLER_LOGGER = {
  log() {},
  trace() {},
  debug() {},
  info() {},
  warn: (message: string) => process.stderr.write(`${message}\n`),
  error: (message: string) => process.stderr.write(`${message}\n`),
};

/** Bundles `workflowsPath` (the production workflows unless a bench or test worker says otherwise). */
export async function bundleWorkflowsInChildProcess(workflowsPath: string = WORKFLOW_CODE.workflowsPath, opts: { traced?: boolean } = {}): Promise<WorkflowBundle> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'workflow-bundle-'));
  const out = path.join(dir, 'bundle.js');
  try {
    await new Promise<void>((resolve, reject) => {
      // The same node and loader flags as this process (tsx's, when run from source).
      const args = [...process.execArgv, __filename, out, workflowsPath, opts.traced ? 'traced' : 'untraced'];
      const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
      child.once('error', reject);
      child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`bundling the workflow code failed (exit ${code}): ${stderr}`))));
    });
    return { code: await readFile(out, 'utf8') };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function writeBundle(out: string, workflowsPath: string, traced: boolean): Promise<void> {
  const { bundleWorkflowCode } = await import('@temporalio/worker');
  const bundle = await bundleWorkflowCode({ ...workflowCode(workflowsPath, { traced }), logger: BUNDLER_LOGGER });
  await writeFile(out, bundle.code);
}

if (require.main === module) {
  writeBundle(process.argv[2]!, process.argv[3]!, process.argv[4] === 'traced').catch((err) => {
    process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(1);
  });
}
