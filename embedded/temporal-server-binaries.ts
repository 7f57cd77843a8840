import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { TOOLS_BIN } from './temporal-cli';

// The Temporal server, its SQL schema tool and the UI server for the production topology
// (`npm run stack:prod`), built from the Go module proxy as the CLI is (embedded/temporal-cli.ts).
// Each version gets its own folder under .tools/bin, because the module names its binaries
// `server` and `sql`, and a version bump must rebuild rather than reuse an older binary whose
// schema would not match.

export const TEMPORAL_SERVER_VERSION = 'v1.29.1';
export const TEMPORAL_UI_SERVER_VERSION = 'v2.42.1';

const SERVER_MODULE = 'go.temporal.io/server';
const SERVER_PACKAGES = [`${SERVER_MODULE}/cmd/server`, `${SERVER_MODULE}/cmd/tools/sql`];
const UI_SERVER_PACKAGE = 'github.com/temporalio/ui-server/v2/cmd/server';

export const TEMPORAL_SERVER_BIN_DIR = path.join(TOOLS_BIN, `temporal-server-${TEMPORAL_SERVER_VERSION}`);
export const TEMPORAL_UI_SERVER_BIN_DIR = path.join(TOOLS_BIN, `temporal-ui-server-${TEMPORAL_UI_SERVER_VERSION}`);

export interface TemporalSchemaDirs {
  /** `versioned` folder of the main (history, tasks, namespaces) schema, for `sql update-schema -d`. */
  temporal: string;
  /** Same for the visibility schema. */
  visibility: string;
}

export interface TemporalServerBinaries {
  server: string;
  sql: string;
  /** Undefined when the UI server could not be built: the stack then runs without a UI. */
  ui: string | undefined;
  schemaDirs: TemporalSchemaDirs;
}

function hasGo(): boolean {
  return spawnSync('sh', ['-c', 'command -v go'], { stdio: 'ignore' }).status === 0;
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    // Go's own progress ("go: downloading …") goes to our stderr: a first build takes minutes.
    const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'inherit', 'inherit'] });
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')} exited with ${code}`))));
  });
}

function goInstall(packages: string[], version: string, gobin: string): Promise<void> {
  return run('go', ['install', ...packages.map((pkg) => `${pkg}@${version}`)], { GOBIN: gobin });
}

async function serverAndSqlTool(log: (line: string) => void): Promise<{ server: string; sql: string }> {
  const server = path.join(TEMPORAL_SERVER_BIN_DIR, 'server');
  const sql = path.join(TEMPORAL_SERVER_BIN_DIR, 'sql');
  if (existsSync(server) && existsSync(sql)) return { server, sql };
  if (!hasGo()) {
    throw new Error(
      `The Temporal server ${TEMPORAL_SERVER_VERSION} is not in ${TEMPORAL_SERVER_BIN_DIR} and there is no Go to build it: install Go 1.25 or later, then run npm run temporal:install-server.`,
    );
  }
  log(`building the Temporal server and SQL tool ${TEMPORAL_SERVER_VERSION} with go install (minutes the first time; Go caches it after)`);
  await goInstall(SERVER_PACKAGES, TEMPORAL_SERVER_VERSION, TEMPORAL_SERVER_BIN_DIR);
  return { server, sql };
}

/** The UI is a convenience for operators: a failed build leaves the stack without one, not broken. */
async function uiServer(log: (line: string) => void): Promise<string | undefined> {
  const ui = path.join(TEMPORAL_UI_SERVER_BIN_DIR, 'server');
  if (existsSync(ui)) return ui;
  if (!hasGo()) {
    log(`no Temporal UI: the UI server ${TEMPORAL_UI_SERVER_VERSION} is not built and there is no Go to build it`);
    return undefined;
  }
  log(`building the Temporal UI server ${TEMPORAL_UI_SERVER_VERSION} with go install`);
  try {
    await goInstall([UI_SERVER_PACKAGE], TEMPORAL_UI_SERVER_VERSION, TEMPORAL_UI_SERVER_BIN_DIR);
    return ui;
  } catch (err) {
    log(`no Temporal UI: building the UI server failed (${(err as Error).message}); the stack runs without it`);
    return undefined;
  }
}

function goModCache(): string {
  const found = spawnSync('go', ['env', 'GOMODCACHE'], { encoding: 'utf8' });
  const dir = found.stdout?.trim();
  if (found.status !== 0 || !dir) throw new Error(`go env GOMODCACHE failed: ${found.stderr ?? found.error}`);
  return dir;
}

/**
 * The schema the server's version expects, read from the server module's source in Go's module
 * cache (the same files temporalio/admin-tools ships), never copied into this repository. A cache
 * that was cleaned after the build is filled again with `go mod download`.
 */
export async function temporalSchemaDirs(): Promise<TemporalSchemaDirs> {
  if (!hasGo()) throw new Error(`The Temporal schema files come from Go's module cache: install Go to set up the ${TEMPORAL_SERVER_VERSION} schema.`);
  const moduleDir = path.join(goModCache(), `${SERVER_MODULE}@${TEMPORAL_SERVER_VERSION}`);
  if (!existsSync(moduleDir)) await run('go', ['mod', 'download', `${SERVER_MODULE}@${TEMPORAL_SERVER_VERSION}`], {});
  const schema = path.join(moduleDir, 'schema', 'postgresql', 'v12');
  const dirs = { temporal: path.join(schema, 'temporal', 'versioned'), visibility: path.join(schema, 'visibility', 'versioned') };
  for (const dir of Object.values(dirs)) {
    if (!existsSync(dir)) throw new Error(`The Temporal schema folder ${dir} is missing from Go's module cache.`);
  }
  return dirs;
}

/** Finds what the production stack runs, building what is missing into .tools/bin. */
export async function findOrBuildTemporalServerBinaries(log: (line: string) => void): Promise<TemporalServerBinaries> {
  const { server, sql } = await serverAndSqlTool(log);
  const ui = await uiServer(log);
  return { server, sql, ui, schemaDirs: await temporalSchemaDirs() };
}

// `npm run temporal:install-server`: builds ahead (CI, a fresh machine) and prints where things are.
if (require.main === module) {
  findOrBuildTemporalServerBinaries((line) => console.error(line)).then(
    (found) => {
      console.log(`server             ${found.server}`);
      console.log(`sql tool           ${found.sql}`);
      console.log(`ui server          ${found.ui ?? '(none: see above)'}`);
      console.log(`schema             ${found.schemaDirs.temporal}`);
      console.log(`visibility schema  ${found.schemaDirs.visibility}`);
    },
    (err) => {
      console.error((err as Error).message);
      process.exit(1);
    },
  );
}
