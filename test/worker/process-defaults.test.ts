import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { WORKER_HEAP_LIMIT_MB, WORKER_MALLOC_ARENA_MAX, WORKER_NODE_OPTIONS, WORKER_SEMI_SPACE_MB, workerProcessEnv } from '../../worker/process-defaults';

describe('worker process defaults', () => {
  it('starts `npm run worker` with the same heap limits and malloc arenas as every other launcher', () => {
    const pkg = JSON.parse(readFileSync(path.resolve(__dirname, '../../package.json'), 'utf8')) as { scripts: Record<string, string> };
    const script = pkg.scripts.worker!;
    assert.match(script, new RegExp(`MALLOC_ARENA_MAX=\\$\\{MALLOC_ARENA_MAX:-${WORKER_MALLOC_ARENA_MAX}\\}`));
    assert.ok(script.includes(`NODE_OPTIONS="${WORKER_NODE_OPTIONS} \${NODE_OPTIONS:-}"`), script);
    assert.match(script, /tsx worker\/main\.ts$/);
  });

  it("puts the operator's own options after the default limit, so that theirs wins", () => {
    assert.equal(WORKER_NODE_OPTIONS, `--max-old-space-size=${WORKER_HEAP_LIMIT_MB} --max-semi-space-size=${WORKER_SEMI_SPACE_MB}`);
    assert.deepEqual(workerProcessEnv({}), { NODE_OPTIONS: WORKER_NODE_OPTIONS, MALLOC_ARENA_MAX: String(WORKER_MALLOC_ARENA_MAX) });
    assert.deepEqual(workerProcessEnv({ NODE_OPTIONS: '--max-old-space-size=1024', MALLOC_ARENA_MAX: '4' }), {
      NODE_OPTIONS: `${WORKER_NODE_OPTIONS} --max-old-space-size=1024`,
      MALLOC_ARENA_MAX: '4',
    });
  });
});
