import { spawn } from 'node:child_process';
import { appendFile } from 'node:fs/promises';
import pg from 'pg';
import type { TemporalSchemaDirs } from './temporal-server-binaries';

// The Temporal server's two databases on the stack's Postgres, set up and migrated with the
// server's own SQL tool, as temporalio/admin-tools does in compose. Safe to run on every start:
// what exists is kept, and update-schema applies only the versions the database lacks, which is
// also how a server upgrade migrates an existing stack.

export const TEMPORAL_DB_USER = 'temporal';
export const TEMPORAL_DB_PASSWORD = 'temporal';
export const TEMPORAL_DB_NAME = 'temporal';
export const TEMPORAL_VISIBILITY_DB_NAME = 'temporal_visibility';

export interface TemporalDatabasesOptions {
  /** A superuser's connection (the service's own database URL on embedded Postgres). */
  superuserUrl: string;
  /** Where the SQL tool and the Temporal server reach Postgres over TCP. */
  host: string;
  port: number;
  sqlTool: string;
  schemaDirs: TemporalSchemaDirs;
  /** The SQL tool's output is appended here. */
  logFile: string;
  log: (line: string) => void;
}

function quoteIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

async function createRoleAndDatabases(superuserUrl: string): Promise<void> {
  const admin = new pg.Client({ connectionString: superuserUrl });
  await admin.connect();
  try {
    const role = await admin.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [TEMPORAL_DB_USER]);
    if (role.rowCount === 0) {
      // The password is a fixed local one: this Postgres listens on loopback only.
      await admin.query(`CREATE ROLE ${quoteIdentifier(TEMPORAL_DB_USER)} LOGIN PASSWORD '${TEMPORAL_DB_PASSWORD}'`);
    }
    for (const database of [TEMPORAL_DB_NAME, TEMPORAL_VISIBILITY_DB_NAME]) {
      const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
      // Owned by the server's role, which can then create the visibility schema's btree_gin
      // extension (a trusted extension) without a superuser.
      if (exists.rowCount === 0) await admin.query(`CREATE DATABASE ${quoteIdentifier(database)} OWNER ${quoteIdentifier(TEMPORAL_DB_USER)}`);
    }
  } finally {
    await admin.end();
  }
}

async function hasSchemaVersionTable(host: string, port: number, database: string): Promise<boolean> {
  const client = new pg.Client({ host, port, database, user: TEMPORAL_DB_USER, password: TEMPORAL_DB_PASSWORD });
  await client.connect();
  try {
    const found = await client.query<{ table: string | null }>("SELECT to_regclass('public.schema_version')::text AS table");
    return found.rows[0]?.table != null;
  } finally {
    await client.end();
  }
}

async function runSqlTool(opts: TemporalDatabasesOptions, database: string, command: string[]): Promise<void> {
  const args = [
    '--plugin',
    'postgres12',
    '--ep',
    opts.host,
    '--port',
    String(opts.port),
    '--user',
    TEMPORAL_DB_USER,
    '--password',
    TEMPORAL_DB_PASSWORD,
    '--db',
    database,
    ...command,
  ];
  let output = '';
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(opts.sqlTool, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('close', resolve);
  });
  await appendFile(opts.logFile, `--- ${new Date().toISOString()} sql ${args.join(' ')}\n${output}`);
  if (code !== 0) throw new Error(`the Temporal SQL tool failed on ${database} (${command[0]}, exit ${code}): ${output.slice(-1500)}`);
}

/** Creates the role and both databases if absent, then brings both schemas to the server's version. */
export async function prepareTemporalDatabases(opts: TemporalDatabasesOptions): Promise<void> {
  await createRoleAndDatabases(opts.superuserUrl);
  const schemas: [string, string][] = [
    [TEMPORAL_DB_NAME, opts.schemaDirs.temporal],
    [TEMPORAL_VISIBILITY_DB_NAME, opts.schemaDirs.visibility],
  ];
  for (const [database, schemaDir] of schemas) {
    if (!(await hasSchemaVersionTable(opts.host, opts.port, database))) {
      opts.log(`setting up the ${database} schema`);
      await runSqlTool(opts, database, ['setup-schema', '-v', '0.0']);
    }
    await runSqlTool(opts, database, ['update-schema', '-d', schemaDir]);
  }
}
