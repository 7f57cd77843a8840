import net from 'node:net';
import path from 'node:path';
import { Connection } from '@temporalio/client';
import { msToTs } from '@temporalio/common/lib/time';
import { distinctFreePorts } from '../lib/free-port';
import { startManagedProcess, type ManagedProcess } from './managed-process';
import { PROJECT_ROOT } from './temporal-cli';
import { TEMPORAL_DB_NAME, TEMPORAL_DB_PASSWORD, TEMPORAL_DB_USER, TEMPORAL_VISIBILITY_DB_NAME } from './temporal-databases';
import { waitUntilServing } from './temporal-server';

// The Temporal server of the production topology: the module's `server` binary on Postgres, run
// with the configuration kept in the repository (config/temporal/production.yaml, the same file
// compose mounts). Every port comes from the environment, so two stacks can run side by side.

/** gRPC status ALREADY_EXISTS. */
const GRPC_ALREADY_EXISTS = 6;
/** How long a closed workflow stays visible and its history is kept. */
export const NAMESPACE_RETENTION = '3 days';

export const TEMPORAL_CONFIG_DIR = path.join('config', 'temporal');

export interface TemporalServerPorts {
  frontend: number;
  frontendMembership: number;
  frontendHttp: number;
  history: number;
  historyMembership: number;
  matching: number;
  matchingMembership: number;
  worker: number;
  workerMembership: number;
  metrics: number;
}

export interface TemporalServerOptions {
  binary: string;
  ports: TemporalServerPorts;
  database: { host: string; port: number };
  logFile: string;
  onUnexpectedExit(description: string): void;
}

/**
 * Ports the membership ports can use. The server records each host's membership port in
 * cluster_membership.rpc_port, a SMALLINT on Postgres, so a port above 32767 kills it at start; the
 * kernel's ephemeral ports (what listening on port 0 gives) all are. Below 10000 sit the
 * well-known ports of other software.
 */
const MEMBERSHIP_PORT_RANGE = { min: 10_000, max: 32_767 };

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** Free ports in MEMBERSHIP_PORT_RANGE, all different, tried at random so two stacks rarely collide. */
export async function freeMembershipPorts(count: number): Promise<number[]> {
  const ports = new Set<number>();
  while (ports.size < count) {
    const port = MEMBERSHIP_PORT_RANGE.min + Math.floor(Math.random() * (MEMBERSHIP_PORT_RANGE.max - MEMBERSHIP_PORT_RANGE.min + 1));
    if (!ports.has(port) && (await canListen(port))) ports.add(port);
  }
  return [...ports];
}

/**
 * Ports for every Temporal service, all free and all different: the gRPC, HTTP and metrics ports
 * from the kernel, the membership ports from MEMBERSHIP_PORT_RANGE. `taken` are ports the caller
 * has already picked for something else.
 */
export async function freeTemporalServerPorts(taken: number[] = []): Promise<TemporalServerPorts> {
  const free = (await distinctFreePorts(6 + taken.length)).filter((port) => !taken.includes(port)).slice(0, 6);
  const [frontend, frontendHttp, history, matching, worker, metrics] = free as [number, number, number, number, number, number];
  const [frontendMembership, historyMembership, matchingMembership, workerMembership] = (await freeMembershipPorts(4)) as [number, number, number, number];
  return { frontend, frontendMembership, frontendHttp, history, historyMembership, matching, matchingMembership, worker, workerMembership, metrics };
}

/** The variables config/temporal/production.yaml reads. */
export function temporalServerEnv(ports: TemporalServerPorts, database: { host: string; port: number }): Record<string, string> {
  return {
    TEMPORAL_LOG_LEVEL: 'warn',
    TEMPORAL_DB_HOST: database.host,
    TEMPORAL_DB_PORT: String(database.port),
    TEMPORAL_DB_USER,
    TEMPORAL_DB_PASSWORD,
    TEMPORAL_DB_NAME,
    TEMPORAL_VISIBILITY_DB_NAME,
    TEMPORAL_BIND_IP: '127.0.0.1',
    TEMPORAL_BROADCAST_ADDRESS: '127.0.0.1',
    TEMPORAL_METRICS_PORT: String(ports.metrics),
    TEMPORAL_FRONTEND_PORT: String(ports.frontend),
    TEMPORAL_FRONTEND_MEMBERSHIP_PORT: String(ports.frontendMembership),
    TEMPORAL_FRONTEND_HTTP_PORT: String(ports.frontendHttp),
    TEMPORAL_HISTORY_PORT: String(ports.history),
    TEMPORAL_HISTORY_MEMBERSHIP_PORT: String(ports.historyMembership),
    TEMPORAL_MATCHING_PORT: String(ports.matching),
    TEMPORAL_MATCHING_MEMBERSHIP_PORT: String(ports.matchingMembership),
    TEMPORAL_WORKER_PORT: String(ports.worker),
    TEMPORAL_WORKER_MEMBERSHIP_PORT: String(ports.workerMembership),
  };
}

/** The frontend answers once its services have joined the cluster; namespaces come after. */
async function frontendAnswers(address: string): Promise<boolean> {
  const connection = await Connection.connect({ address, connectTimeout: 1000 });
  try {
    await connection.workflowService.getSystemInfo({});
    return true;
  } finally {
    await connection.close();
  }
}

export function startTemporalServer(opts: TemporalServerOptions): Promise<ManagedProcess> {
  const address = `127.0.0.1:${opts.ports.frontend}`;
  return startManagedProcess({
    name: 'temporal-server',
    command: opts.binary,
    // --allow-no-auth: the frontend listens on loopback only (a private network in compose), and
    // without the flag the server warns on every start that a future version will insist on it.
    args: ['--root', PROJECT_ROOT, '--config', TEMPORAL_CONFIG_DIR, '--env', 'production', '--allow-no-auth', 'start'],
    // The config's dynamic config path is relative to the working directory.
    cwd: PROJECT_ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...temporalServerEnv(opts.ports, opts.database) },
    logFile: opts.logFile,
    ready: { probe: () => frontendAnswers(address) },
    readyTimeoutMs: 120_000,
    // Its services drain their shards and task queues before exiting.
    stopTimeoutMs: 30_000,
    onUnexpectedExit: opts.onUnexpectedExit,
  });
}

async function tryRegisterNamespace(address: string, namespace: string): Promise<'registered' | 'existed'> {
  const connection = await Connection.connect({ address, connectTimeout: 1000 });
  try {
    await connection.workflowService.registerNamespace({ namespace, workflowExecutionRetentionPeriod: msToTs(NAMESPACE_RETENTION) });
    return 'registered';
  } catch (err) {
    if ((err as { code?: number }).code === GRPC_ALREADY_EXISTS) return 'existed';
    throw err;
  } finally {
    await connection.close();
  }
}

/** A frontend that has just joined may still refuse writes for a moment: retried for a while. */
async function registerNamespace(address: string, namespace: string): Promise<'registered' | 'existed'> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      return await tryRegisterNamespace(address, namespace);
    } catch (err) {
      if (Date.now() > deadline) throw new Error(`registering the Temporal namespace ${namespace} failed: ${(err as Error).message}`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
}

/**
 * Registers each namespace the server lacks (a production server has none but its system one),
 * then waits until the frontend serves workflow calls in it: its namespace cache refreshes every
 * few seconds, and a worker that polls before then is told the namespace does not exist.
 */
export async function ensureNamespaces(address: string, namespaces: string[], log: (line: string) => void): Promise<void> {
  for (const namespace of new Set(namespaces)) {
    const outcome = await registerNamespace(address, namespace);
    if (outcome === 'registered') log(`registered the Temporal namespace ${namespace} (retention ${NAMESPACE_RETENTION})`);
    await waitUntilServing(address, 60_000, namespace);
  }
}
