import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

// Schemathesis, the fuzzer that tests our OpenAPI document against the running API
// (test/openapi/fuzz.test.ts in `npm test`, and the long run of `npm run fuzz`; docs/testing.md,
// "Fuzzing the contract"). It is a Python tool from PyPI: this installs the pinned version, with
// every dependency pinned to a version and a hash (embedded/schemathesis-requirements.txt), into a
// git-ignored virtualenv (.cache/schemathesis-venv) on first use, and reuses it after; the venv is
// rebuilt only when it lacks the pinned version. `npm run fuzz:install` runs it on its own.

/** The version the runs use; change it together with embedded/schemathesis-requirements.txt. */
export const SCHEMATHESIS_VERSION = '4.32.5';

const ROOT = path.resolve(__dirname, '..');
const VENV = path.join(ROOT, '.cache', 'schemathesis-venv');
const PYTHON = path.join(VENV, 'bin', 'python');
const ST = path.join(VENV, 'bin', 'st');
const REQUIREMENTS = path.join(__dirname, 'schemathesis-requirements.txt');
const TAIL_CHARS = 4_000;
const run = promisify(execFile);

async function installedVersion(): Promise<string | undefined> {
  if (!existsSync(PYTHON) || !existsSync(ST)) return undefined;
  try {
    const { stdout } = await run(PYTHON, ['-c', "import importlib.metadata as m; print(m.version('schemathesis'))"]);
    return stdout.trim();
  } catch {
    return undefined;
  }
}

/**
 * Makes sure .cache/schemathesis-venv holds schemathesis==SCHEMATHESIS_VERSION and returns the path
 * of its `st` executable; a failure says which step failed and pip's last words.
 */
export async function ensureSchemathesis(say: (line: string) => void = () => undefined): Promise<string> {
  const found = await installedVersion();
  if (found === SCHEMATHESIS_VERSION) return ST;
  say(
    found
      ? `Schemathesis ${found} in ${path.relative(ROOT, VENV)}; installing ${SCHEMATHESIS_VERSION}`
      : `installing Schemathesis ${SCHEMATHESIS_VERSION} into ${path.relative(ROOT, VENV)} (first run; under a minute)`,
  );
  const step = async (what: string, file: string, args: string[]) => {
    try {
      await run(file, args, { maxBuffer: 64 * 2 ** 20 });
    } catch (err) {
      const e = err as { stdout?: string; stderr?: string; message: string };
      throw new Error(`${what} failed (${file} ${args.join(' ')}): ${e.message.split('\n')[0]}\n${`${e.stdout ?? ''}${e.stderr ?? ''}`.slice(-TAIL_CHARS)}`);
    }
  };
  if (!existsSync(PYTHON)) await step('creating the virtualenv', 'python3', ['-m', 'venv', VENV]);
  await step('pip install', PYTHON, ['-m', 'pip', 'install', '--disable-pip-version-check', '--quiet', '--require-hashes', '-r', REQUIREMENTS]);
  const now = await installedVersion();
  if (now !== SCHEMATHESIS_VERSION) throw new Error(`pip install finished but ${path.relative(ROOT, VENV)} holds schemathesis ${now ?? '(none)'}, not ${SCHEMATHESIS_VERSION}`);
  return ST;
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
