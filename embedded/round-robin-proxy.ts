import net from 'node:net';

// The load balancer in front of the API processes of `npm run stack:prod`: a TCP proxy that hands
// each new connection to the next backend in turn, as a cloud load balancer or a Kubernetes
// Service does. It balances connections, not requests: a client that keeps its connection alive
// stays on one backend, and a new connection is what moves it. A backend that refuses the
// connection (stopped, crashed, restarting) is skipped for that connection, so a dead API costs
// clients nothing while another one is up.

export interface Backend {
  host: string;
  port: number;
}

export interface RoundRobinProxy {
  /** `http://host:port`, for an HTTP service behind it. */
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

export interface RoundRobinProxyOptions {
  backends: Backend[];
  /** 0 (the default) picks a free port. */
  port?: number;
  host?: string;
}

/** Connects to the first backend, from `start` on in turn, that accepts; undefined when none does. */
async function connectToNextLive(backends: Backend[], start: number): Promise<net.Socket | undefined> {
  for (let attempt = 0; attempt < backends.length; attempt++) {
    const backend = backends[(start + attempt) % backends.length]!;
    const socket = await new Promise<net.Socket | undefined>((resolve) => {
      const upstream = net.connect(backend.port, backend.host);
      upstream.once('connect', () => {
        upstream.off('error', refused);
        resolve(upstream);
      });
      const refused = () => {
        upstream.destroy();
        resolve(undefined);
      };
      upstream.once('error', refused);
    });
    if (socket) return socket;
  }
  return undefined;
}

export async function startRoundRobinProxy(opts: RoundRobinProxyOptions): Promise<RoundRobinProxy> {
  if (opts.backends.length === 0) throw new Error('a round-robin proxy needs at least one backend');
  const host = opts.host ?? '127.0.0.1';
  const sockets = new Set<net.Socket>();
  let next = 0;

  const server = net.createServer({ pauseOnConnect: true }, (client) => {
    const track = (socket: net.Socket) => {
      sockets.add(socket);
      socket.once('close', () => sockets.delete(socket));
    };
    track(client);
    // A client that gives up while we are still connecting must not leave an error unhandled.
    client.on('error', () => client.destroy());
    const start = next;
    next = (next + 1) % opts.backends.length;
    void connectToNextLive(opts.backends, start).then((upstream) => {
      if (!upstream) return client.destroy();
      if (client.destroyed) return upstream.destroy();
      track(upstream);
      upstream.on('error', () => client.destroy());
      client.on('error', () => upstream.destroy());
      upstream.once('close', () => client.destroy());
      client.once('close', () => upstream.destroy());
      client.pipe(upstream);
      upstream.pipe(client);
      client.resume();
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as net.AddressInfo).port;
  return {
    url: `http://${host}:${port}`,
    port,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}
