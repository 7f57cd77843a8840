import path from 'node:path';
import { ensurePythonTool } from '../../lib/python-venv';

// The official `openai` Python package, for the test that drives the OpenAI-compatible chat from
// Python (test/api/openai-chat-python.test.ts): installed from PyPI at a pinned version into a
// git-ignored virtualenv (.cache/openai-python-venv) on first use, and reused after.

/** The version the test runs; a different one is installed over it when this changes. */
export const OPENAI_PYTHON_VERSION = '3.57.0';

const ROOT = path.resolve(__dirname, '..', '..');
const VENV = path.join(ROOT, '.cache', 'openai-python-venv');

/** Makes sure the venv holds openai==OPENAI_PYTHON_VERSION and returns the path of its Python. */
export async function ensureOpenAiPython(say: (line: string) => void = () => undefined): Promise<string> {
  return ensurePythonTool(
    {
      distribution: 'openai',
      version: OPENAI_PYTHON_VERSION,
      venv: VENV,
      // A library, run by the venv's Python (openai 3 ships no console script of its own).
      executable: 'python',
      pipArgs: [`openai==${OPENAI_PYTHON_VERSION}`],
      firstInstallTakes: 'under a minute',
    },
    say,
  );
}
