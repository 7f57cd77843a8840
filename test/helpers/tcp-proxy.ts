import net from 'node:net';

// A TCP proxy in front of a real server (Postgres, Temporal), so a test can make that server
// unreachable for one client without disturbing anyone else who uses it:
// - freeze(): connections are still accepted but nothing is forwarded either way, as when the
//   server process is SIGSTOPped (the kernel still completes handshakes and buffers the bytes);
// - refuse(): every connection is closed and new ones are refused, as when the server is down;
// - restore(): forwards again; what was held while frozen is delivered in order, as a SIGCONT would;
// - blackhole(): the current connections go silent for good, never answered nor closed (a network
//   partition that outlived the server), while new connections are forwarded as usual.

export interface TcpProxy {
  /** The proxy's address as `host:port` (Temporal's form). */
  readonly address: string;
  readonly host: string;
  readonly port: number;
  freeze(): void;
  refuse(): Promise<void>;
  restore(): Promise<void>;
  blackhole(): void;
  close(): Promise<void>;
}

type Mode = 'open' | 'frozen' | 'refusing';

/** A proxy in front of the Postgres that `databaseUrl` names, and that URL through the proxy. */
export async function startPostgresProxy(databaseUrl: string): Promise<{ proxy: TcpProxy; databaseUrl: string }> {
  const database = new URL(databaseUrl);
  const proxy = await startTcpProxy({ host: '127.0.0.1', port: Number(database.port) });
  return { proxy, databaseUrl: `postgres://${database.username}:${database.password}@127.0.0.1:${proxy.port}${database.pathname}` };
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const host = '127.0.0.1';
  let mode: Mode = 'open';
  const sockets = new Set<net.Socket>();
  const silenced = new WeakSet<net.Socket>();
  // What arrived while frozen, in arrival order: writes, ends and closes still to be delivered.
  let held: (() => void)[] = [];
  const deliver = (action: () => void) => {
    if (mode === 'frozen') held.push(action);
    else action();
  };

  function relay(from: net.Socket, to: net.Socket): void {
    const forward = (action: () => void) => {
      if (!silenced.has(from)) deliver(action);
    };
    from.on('data', (chunk) => forward(() => to.write(chunk)));
    from.on('end', () => forward(() => to.end()));
    from.on('close', () => forward(() => to.destroy()));
    from.on('error', () => undefined);
  }

  const server = net.createServer((client) => {
    const upstream = net.connect(target.port, target.host);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.once('close', () => sockets.delete(socket));
    }
    relay(client, upstream);
    relay(upstream, client);
  });

  const listen = (port: number) =>
    new Promise<void>((resolve, reject) =>
      server.once('error', reject).listen(port, host, () => {
        server.off('error', reject);
        resolve();
      }),
    );
  await listen(0);
  const port = (server.address() as net.AddressInfo).port;

  async function refuse(): Promise<void> {
    mode = 'refusing';
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const socket of sockets) socket.destroy();
    sockets.clear();
    held = [];
    await closed;
  }

  return {
    address: `${host}:${port}`,
    host,
    port,
    freeze() {
      mode = 'frozen';
    },
    refuse,
    async restore() {
      if (mode === 'refusing') await listen(port);
      mode = 'open';
      const actions = held;
      held = [];
      for (const action of actions) action();
    },
    blackhole() {
      for (const socket of sockets) silenced.add(socket);
      held = [];
    },
    close: refuse,
  };
}
