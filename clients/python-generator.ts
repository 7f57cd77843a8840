import { execFile } from 'node:child_process';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { ensurePythonTool } from '../lib/python-venv';

// The Python client's generated half: openapi-python-client (PyPI, pinned below, installed into the
// git-ignored .cache/openapi-python-client-venv by lib/python-venv.ts, every dependency pinned with a hash in
// clients/python/generator-requirements.txt) turns the root openapi.json
// into the typed httpx + attrs package clients/python/generation_service/_generated. The
// hand-written layer around it (Client, wait, pagination, retries, errors, verify_webhook) lives
// beside it and is never touched by a regeneration. The staleness test
// (test/clients/python-generated.test.ts) regenerates into a temporary folder and compares trees.

/** The generator's version (the output differs between versions); change it together with clients/python/generator-requirements.txt. */
const OPENAPI_PYTHON_CLIENT_VERSION = '0.29.1';

const ROOT = path.resolve(__dirname, '..');
const run = promisify(execFile);

const OPENAPI_DOCUMENT = path.join(ROOT, 'openapi.json');
export const PYTHON_GENERATED_DIR = path.join(ROOT, 'clients/python/generation_service/_generated');
const GENERATOR_CONFIG = path.join(ROOT, 'clients/python/generator-config.yaml');

function ensureGenerator(say: (line: string) => void): Promise<string> {
  return ensurePythonTool(
    {
      distribution: 'openapi-python-client',
      version: OPENAPI_PYTHON_CLIENT_VERSION,
      venv: path.join(ROOT, '.cache', 'openapi-python-client-venv'),
      executable: 'openapi-python-client',
      pipArgs: ['--require-hashes', '-r', path.join(ROOT, 'clients/python/generator-requirements.txt')],
      firstInstallTakes: 'under a minute',
    },
    say,
  );
}

/** Generates the package from openapi.json into `target` (which must not exist yet). */
export async function generatePythonClient(target: string, say: (line: string) => void = () => undefined): Promise<void> {
  const generator = await ensureGenerator(say);
  // The post hooks (generator-config.yaml) run the venv's own ruff: its bin/ goes first on PATH.
  const env = { ...process.env, PATH: `${path.dirname(generator)}${path.delimiter}${process.env.PATH ?? ''}` };
  await run(generator, ['generate', '--path', OPENAPI_DOCUMENT, '--meta', 'none', '--config', GENERATOR_CONFIG, '--output-path', target], {
    cwd: ROOT,
    env,
    maxBuffer: 16 * 2 ** 20,
  });
}

/** Regenerates clients/python/generation_service/_generated in place (through a temporary folder, so a failed run leaves the old code). */
export async function regeneratePythonClient(say: (line: string) => void = () => undefined): Promise<void> {
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'python-client-'));
  try {
    const fresh = path.join(scratch, '_generated');
    await generatePythonClient(fresh, say);
    await rm(PYTHON_GENERATED_DIR, { recursive: true, force: true });
    await cp(fresh, PYTHON_GENERATED_DIR, { recursive: true });
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
