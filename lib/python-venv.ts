import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

// The project's Python tools (Schemathesis for the fuzz runs, LiteLLM for bench:chat) come from PyPI
// at a pinned version into a git-ignored virtualenv of their own, installed on first use and reused
// after: installed again only when the venv lacks the pinned version. One installer, so both
// report a failed step the same way.

const TAIL_CHARS = 4_000;
const run = promisify(execFile);

export interface PythonTool {
  /** The distribution whose installed version is checked (`schemathesis`, `litellm`). */
  distribution: string;
  version: string;
  /** The virtualenv's folder. */
  venv: string;
  /** The console script the tool is run by, in the venv's bin/. */
  executable: string;
  /** What follows `pip install` (a pinned requirement, or `--require-hashes -r <file>`). */
  pipArgs: string[];
  /** How long a first install takes, for the message a person waits on. */
  firstInstallTakes: string;
}

async function installedVersion(tool: PythonTool, python: string, executable: string): Promise<string | undefined> {
  if (!existsSync(python) || !existsSync(executable)) return undefined;
  try {
    const { stdout } = await run(python, ['-c', `import importlib.metadata as m; print(m.version('${tool.distribution}'))`]);
    return stdout.trim();
  } catch {
    return undefined;
  }
}

/** Makes sure the tool's venv holds its pinned version and returns its executable's path; a failure says which step failed and pip's last words. */
export async function ensurePythonTool(tool: PythonTool, say: (line: string) => void = () => undefined): Promise<string> {
  const python = path.join(tool.venv, 'bin', 'python');
  const executable = path.join(tool.venv, 'bin', tool.executable);
  const where = path.relative(process.cwd(), tool.venv) || tool.venv;
  const found = await installedVersion(tool, python, executable);
  if (found === tool.version) return executable;
  say(
    found
      ? `${tool.distribution} ${found} in ${where}; installing ${tool.version}`
      : `installing ${tool.distribution} ${tool.version} into ${where} (first run; ${tool.firstInstallTakes})`,
  );
  const step = async (what: string, file: string, args: string[]) => {
    try {
      await run(file, args, { maxBuffer: 64 * 2 ** 20 });
    } catch (err) {
      const e = err as { stdout?: string; stderr?: string; message: string };
      throw new Error(`${what} failed (${file} ${args.join(' ')}): ${e.message.split('\n')[0]}\n${`${e.stdout ?? ''}${e.stderr ?? ''}`.slice(-TAIL_CHARS)}`);
    }
  };
  if (!existsSync(python)) await step('creating the virtualenv', 'python3', ['-m', 'venv', tool.venv]);
  await step('pip install', python, ['-m', 'pip', 'install', '--disable-pip-version-check', '--quiet', ...tool.pipArgs]);
  const now = await installedVersion(tool, python, executable);
  if (now !== tool.version) throw new Error(`pip install finished but ${where} holds ${tool.distribution} ${now ?? '(none)'}, not ${tool.version}`);
  return executable;
}
