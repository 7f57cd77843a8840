import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startRoundRobinProxy, type RoundRobinProxy } from '../../embedded/round-robin-proxy';

// The proxy that `npm run stack:prod` puts in front of its API processes, against two tiny HTTP
// servers that answer with their own name.

interface NamedBackend {
  name: string;
  port: number;
  stop(): Promise<void>;
}

async function startBackend(name: string, port = 0): Promise<NamedBackend> {
  const server = http.createServer((_req, res) => res.end(name));
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    name,
    port: (server.address() as AddressInfo).port,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** One request on a connection of its own (`agent: false`), or on `agent`'s kept-alive one. */
function get(url: string, agent: http.Agent | false = false): Promise<string> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent }, (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => resolve(body));
      })
      .on('error', reject);
  });
}

async function getMany(url: string, count: number, agent: http.Agent | false = false): Promise<string[]> {
  const answers: string[] = [];
  for (let i = 0; i < count; i++) answers.push(await get(url, agent));
  return answers;
}

describe('the round-robin proxy in front of the API processes', () => {
  let a: NamedBackend;
  let b: NamedBackend;
  let proxy: RoundRobinProxy;

  beforeEach(async () => {
    a = await startBackend('a');
    b = await startBackend('b');
    proxy = await startRoundRobinProxy({ backends: [a, b].map(({ port }) => ({ host: '127.0.0.1', port })) });
  });

  afterEach(async () => {
    await proxy.close();
    await Promise.all([a.stop(), b.stop()]);
  });

  it('hands each new connection to the next backend in turn', async () => {
    assert.deepEqual(await getMany(proxy.url, 4), ['a', 'b', 'a', 'b']);
  });

  it('keeps a kept-alive connection on the backend it started on', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const answers = await getMany(proxy.url, 4, agent);
      assert.equal(new Set(answers).size, 1, `one connection, one backend: ${answers.join(',')}`);
    } finally {
      agent.destroy();
    }
  });

  it('skips a backend that refuses connections, so every client still gets an answer', async () => {
    await b.stop();
    assert.deepEqual(await getMany(proxy.url, 4), ['a', 'a', 'a', 'a']);
  });

  it('sends connections to a backend again once it is back on its port', async () => {
    await b.stop();
    assert.deepEqual(await getMany(proxy.url, 2), ['a', 'a']);
    b = await startBackend('b', b.port);
    const answers = await getMany(proxy.url, 4);
    assert.deepEqual([...answers].sort(), ['a', 'a', 'b', 'b']);
  });

  it('closes the client connection when no backend accepts it', async () => {
    await Promise.all([a.stop(), b.stop()]);
    await assert.rejects(get(proxy.url), /socket hang up|ECONNRESET/);
  });
});
