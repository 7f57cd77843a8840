import assert from 'node:assert/strict';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PYTHON_GENERATED_DIR, generatePythonClient } from '../../clients/python-generator';

// The committed clients/python/generation_service/_generated must be what openapi-python-client
// makes of the current openapi.json: a change to the API that was not followed by
// `npm run clients:generate:python` fails here, naming the files that differ.

async function tree(root: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const entry of await readdir(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || entry.name.endsWith('.pyc')) continue;
    const file = path.join(entry.parentPath, entry.name);
    files.set(path.relative(root, file), await readFile(file, 'utf8'));
  }
  return files;
}

describe('the generated Python client', function () {
  this.timeout(300_000);

  it('is what openapi-python-client makes of the current openapi.json (run npm run clients:generate:python when not)', async () => {
    const scratch = await mkdtemp(path.join(os.tmpdir(), 'python-client-fresh-'));
    try {
      const fresh = path.join(scratch, '_generated');
      await generatePythonClient(fresh);
      const [want, have] = await Promise.all([tree(fresh), tree(PYTHON_GENERATED_DIR)]);
      const missing = [...want.keys()].filter((f) => !have.has(f));
      const extra = [...have.keys()].filter((f) => !want.has(f));
      const changed = [...want.keys()].filter((f) => have.has(f) && have.get(f) !== want.get(f));
      assert.ok(want.size > 100, `the generator wrote only ${want.size} files`);
      assert.deepEqual({ missing, extra, changed }, { missing: [], extra: [], changed: [] }, 'clients/python is stale: run npm run clients:generate:python');
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  });
});
