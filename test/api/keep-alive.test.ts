import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { freePort } from '../../lib/free-port';
import { killHard, spawnApiProcess } from '../helpers/service-process';

// The API process keeps an idle keep-alive connection open longer than a load balancer's idle
// timeout (60 s on the common ones), so the balancer closes first and never reuses a connection the
// API is closing at that moment (Node's 5 s default: an occasional reset, a 502 at the balancer).
// Node announces the setting in each answer's Keep-Alive header.

describe('keep-alive connections of the API process', function () {
  this.timeout(60_000);
  let api: ChildProcess | undefined;
  after(async () => {
    if (api) await killHard(api);
  });

  it('are kept open 65 s when idle, longer than a load balancer keeps its own', async () => {
    const port = await freePort();
    // Without its own worker: this is about the HTTP server only, and it starts faster.
    api = await spawnApiProcess(port, { API_EMBEDDED_WORKER: 'false' });
    const res = await fetch(`http://127.0.0.1:${port}/healthz`);
    await res.arrayBuffer();
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('keep-alive'), 'timeout=65');
  });
});
