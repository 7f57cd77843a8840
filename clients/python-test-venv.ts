import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { ensurePythonTool } from '../lib/python-venv';

// The virtualenv the Python client's pytest suite runs in (test/clients/python.test.ts): pytest and
// the client's dependencies at pinned versions (clients/python/test-requirements.txt, with hashes) in the
// git-ignored .cache/python-client-test-venv, made on first use by lib/python-venv.ts; then the
// client itself, reinstalled from clients/python on every run (`pip install ./clients/python`,
// offline: hatchling is in the venv) so the tests exercise the package as a user installs it.

const ROOT = path.resolve(__dirname, '..');
const CLIENT_DIR = path.join(ROOT, 'clients/python');
const run = promisify(execFile);

/** The pytest the requirements file pins; change both together. */
const PYTEST_VERSION = '8.3.4';

/** Makes the venv, installs the current clients/python into it, and returns the venv's python. */
export async function pythonClientTestVenv(say: (line: string) => void = () => undefined): Promise<string> {
  const venv = path.join(ROOT, '.cache', 'python-client-test-venv');
  await ensurePythonTool(
    {
      distribution: 'pytest',
      version: PYTEST_VERSION,
      venv,
      executable: 'pytest',
      pipArgs: ['--require-hashes', '-r', path.join(CLIENT_DIR, 'test-requirements.txt')],
      firstInstallTakes: 'under a minute',
    },
    say,
  );
  const python = path.join(venv, 'bin', 'python');
  try {
    await run(python, ['-m', 'pip', 'install', '--disable-pip-version-check', '--quiet', '--no-deps', '--no-build-isolation', '--force-reinstall', CLIENT_DIR], {
      maxBuffer: 16 * 2 ** 20,
    });
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string; message: string };
    throw new Error(`pip install ./clients/python failed: ${e.message.split('\n')[0]}\n${e.stdout ?? ''}${e.stderr ?? ''}`);
  }
  return python;
}

if (require.main === module) {
  pythonClientTestVenv((line) => console.log(line)).then(
    (python) => console.log(python),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
