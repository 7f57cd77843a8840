import path from 'node:path';
import { ensurePythonTool } from '../lib/python-venv';

// Schemathesis, the fuzzer that tests our OpenAPI document against the running API
// (test/openapi/fuzz.test.ts in `npm test`, and the long run of `npm run fuzz`; docs/testing.md,
// "Fuzzing the contract"). It is a Python tool from PyPI: this installs the pinned version, with
// every dependency pinned to a version and a hash (embedded/schemathesis-requirements.txt), into a
// git-ignored virtualenv (.cache/schemathesis-venv) on first use, and reuses it after; the venv is
// rebuilt only when it lacks the pinned version. `npm run fuzz:install` runs it on its own.

/** The version the runs use; change it together with embedded/schemathesis-requirements.txt. */
export const SCHEMATHESIS_VERSION = '4.32.5';

const ROOT = path.resolve(__dirname, '..');

/**
 * Makes sure .cache/schemathesis-venv holds schemathesis==SCHEMATHESIS_VERSION and returns the path
 * of its `st` executable.
 */
export function ensureSchemathesis(say: (line: string) => void = () => undefined): Promise<string> {
  return ensurePythonTool(
    {
      distribution: 'schemathesis',
      version: SCHEMATHESIS_VERSION,
      venv: path.join(ROOT, '.cache', 'schemathesis-venv'),
      executable: 'st',
      pipArgs: ['--require-hashes', '-r', path.join(__dirname, 'schemathesis-requirements.txt')],
      firstInstallTakes: 'under a minute',
    },
    say,
  );
}

if (require.main === module) {
  ensureSchemathesis((line) => console.log(line)).then(
    (st) => console.log(st),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
