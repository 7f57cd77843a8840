import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm, symlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { msToNumber } from '@temporalio/common/lib/time';
import pg from 'pg';
import { temporal } from '@temporalio/proto';
import { findOrBuildTemporalCli, PROJECT_ROOT } from '../../embedded/temporal-cli';
import { NAMESPACE_RETENTION } from '../../embedded/temporal-prod-server';
import { SEARCH_ATTRIBUTE_NAMES, SEARCH_ATTRIBUTE_SPECS } from '../../domain/search-attributes';
import { findOrBuildTemporalServerBinaries } from '../../embedded/temporal-server-binaries';
import { stack } from '../helpers/stack';

// The scripts docker-compose.yml's one-shot temporalio/admin-tools services run, run here with the
// same tools that image ships (bash, psql, the `temporal` CLI, the server's SQL tool and schema),
// against the test stack's Postgres and Temporal server.

const SCRIPTS = path.join(PROJECT_ROOT, 'docker', 'temporal-admin-tools');

interface ScriptRun {
  code: number | null;
  output: string;
}

function runScript(script: string, env: Record<string, string>): Promise<ScriptRun> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', [path.join(SCRIPTS, script)], { env: { HOME: os.tmpdir(), ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, output }));
  });
}

const uniqueSuffix = () => randomBytes(4).toString('hex');

describe('the admin-tools scripts of docker-compose.yml', () => {
  describe('create-namespace.sh', () => {
    let cliDir: string;

    before(async () => {
      const cli = await findOrBuildTemporalCli(() => {});
      assert.ok(cli, 'no Temporal CLI: the test stack needs one too');
      cliDir = path.dirname(cli);
    });

    it('registers the namespace with the retention the production mode uses, and keeps it on a second run', async function () {
      this.timeout(120_000);
      const namespace = `compose-${uniqueSuffix()}`;
      const env = { PATH: `${cliDir}:${process.env.PATH}`, TEMPORAL_ADDRESS: stack().config.temporalAddress!, TEMPORAL_NAMESPACE: namespace };

      const first = await runScript('create-namespace.sh', env);
      assert.equal(first.code, 0, first.output);
      assert.match(first.output, new RegExp(`namespace ${namespace} is served`));
      const described = await stack().temporal.workflowService.describeNamespace({ namespace });
      const retentionSeconds = Number(described.config?.workflowExecutionRetentionTtl?.seconds);
      assert.equal(retentionSeconds * 1000, msToNumber(NAMESPACE_RETENTION));

      const second = await runScript('create-namespace.sh', env);
      assert.equal(second.code, 0, second.output);
      assert.match(second.output, new RegExp(`namespace ${namespace} exists`));
    });

    it("registers the service's search attributes in the namespace, and keeps them on a second run", async function () {
      this.timeout(120_000);
      const namespace = `compose-${uniqueSuffix()}`;
      const env = {
        PATH: `${cliDir}:${process.env.PATH}`,
        TEMPORAL_ADDRESS: stack().config.temporalAddress!,
        TEMPORAL_NAMESPACE: namespace,
        TEMPORAL_SEARCH_ATTRIBUTES: SEARCH_ATTRIBUTE_SPECS.join(' '),
      };
      const first = await runScript('create-namespace.sh', env);
      assert.equal(first.code, 0, first.output);
      for (const name of SEARCH_ATTRIBUTE_NAMES) assert.match(first.output, new RegExp(`search attribute ${name} created`));
      const { customAttributes } = await stack().temporal.connection.operatorService.listSearchAttributes({ namespace });
      const keyword = temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD;
      assert.deepEqual(
        Object.fromEntries(SEARCH_ATTRIBUTE_NAMES.map((name) => [name, customAttributes?.[name]])),
        Object.fromEntries(SEARCH_ATTRIBUTE_NAMES.map((name) => [name, keyword])),
      );

      // The CLI's list answers from the frontend's namespace cache, which may not show an attribute
      // created a moment ago; the script then creates it again, which the server accepts for the
      // same type. What must hold is that the second run succeeds and changes nothing.
      const second = await runScript('create-namespace.sh', env);
      assert.equal(second.code, 0, second.output);
      for (const name of SEARCH_ATTRIBUTE_NAMES) assert.match(second.output, new RegExp(`search attribute ${name} (exists|created)`));
      assert.match(second.output, /search attribute \w+ exists/);
      const after = await stack().temporal.connection.operatorService.listSearchAttributes({ namespace });
      assert.deepEqual(
        Object.fromEntries(SEARCH_ATTRIBUTE_NAMES.map((name) => [name, after.customAttributes?.[name]])),
        Object.fromEntries(SEARCH_ATTRIBUTE_NAMES.map((name) => [name, keyword])),
      );
    });
  });

  describe('setup-databases.sh', () => {
    let toolDir: string;
    let schemaDir: string;
    let latest: { temporal: string; visibility: string };
    const postgres = () => {
      const url = new URL(stack().config.databaseUrl!);
      return { host: '127.0.0.1', port: Number(url.port), user: decodeURIComponent(url.username), password: decodeURIComponent(url.password) };
    };

    /** The newest version folder (v1.18 → 1.18) of a versioned schema. */
    async function newestVersion(dir: string): Promise<string> {
      const versions = (await readdir(dir)).map((name) => name.replace(/^v/, '').split('.').map(Number));
      versions.sort((a, b) => a[0]! - b[0]! || a[1]! - b[1]!);
      return versions.at(-1)!.join('.');
    }

    before(async function () {
      // The production mode's binaries; building them on a fresh machine takes minutes.
      this.timeout(20 * 60_000);
      const binaries = await findOrBuildTemporalServerBinaries((line) => process.stderr.write(`  [compose] ${line}\n`));
      // The image names the module's `sql` binary temporal-sql-tool, and keeps the schema in one folder.
      toolDir = await mkdtemp(path.join(os.tmpdir(), 'admin-tools-'));
      await symlink(binaries.sql, path.join(toolDir, 'temporal-sql-tool'));
      schemaDir = path.dirname(path.dirname(binaries.schemaDirs.temporal));
      assert.equal(path.dirname(path.dirname(binaries.schemaDirs.visibility)), schemaDir);
      latest = { temporal: await newestVersion(binaries.schemaDirs.temporal), visibility: await newestVersion(binaries.schemaDirs.visibility) };
    });

    after(async () => {
      if (toolDir) await rm(toolDir, { recursive: true, force: true });
    });

    async function asRole(database: string, role: string, password: string, query: string): Promise<Record<string, unknown>[]> {
      const client = new pg.Client({ ...postgres(), database, user: role, password });
      await client.connect();
      try {
        return (await client.query(query)).rows;
      } finally {
        await client.end();
      }
    }

    async function asSuperuser(database: string, query: string): Promise<void> {
      const client = new pg.Client({ ...postgres(), database });
      await client.connect();
      try {
        await client.query(query);
      } finally {
        await client.end();
      }
    }

    it("creates the server's role, its databases and their schema, adopts what a superuser made, and rotates the password", async function () {
      this.timeout(120_000);
      const suffix = uniqueSuffix();
      const role = `temporal_${suffix}`;
      const main = `temporal_${suffix}`;
      const visibility = `temporal_visibility_${suffix}`;
      // As temporalio/auto-setup left it: a database and a table made by the superuser.
      await asSuperuser('postgres', `CREATE DATABASE ${visibility}`);
      await asSuperuser(visibility, 'CREATE TABLE left_by_auto_setup (id int)');
      const env = (password: string) => ({
        PATH: `${toolDir}:${process.env.PATH}`,
        TEMPORAL_DB_HOST: postgres().host,
        TEMPORAL_DB_PORT: String(postgres().port),
        TEMPORAL_DB_USER: role,
        // Quotes and a semicolon: psql variables carry it, never spliced into SQL.
        TEMPORAL_DB_PASSWORD: password,
        TEMPORAL_DB_NAME: main,
        TEMPORAL_VISIBILITY_DB_NAME: visibility,
        POSTGRES_USER: postgres().user,
        POSTGRES_PASSWORD: postgres().password,
        TEMPORAL_SCHEMA_DIR: schemaDir,
      });

      const firstPassword = `it's;"first"`;
      const first = await runScript('setup-databases.sh', env(firstPassword));
      assert.equal(first.code, 0, first.output.slice(-3000));
      assert.match(first.output, /Temporal's databases are ready/);
      const versionOf = async (database: string, password: string) => (await asRole(database, role, password, 'SELECT curr_version FROM schema_version'))[0]?.curr_version;
      assert.equal(await versionOf(main, firstPassword), latest.temporal);
      assert.equal(await versionOf(visibility, firstPassword), latest.visibility);
      const owners = await asRole(visibility, role, firstPassword, "SELECT DISTINCT tableowner FROM pg_tables WHERE schemaname = 'public'");
      assert.deepEqual(owners, [{ tableowner: role }]);

      const secondPassword = 'rotated-password';
      const second = await runScript('setup-databases.sh', env(secondPassword));
      assert.equal(second.code, 0, second.output.slice(-3000));
      assert.equal(await versionOf(main, secondPassword), latest.temporal);
      await assert.rejects(asRole(main, role, firstPassword, 'SELECT 1'), /password authentication failed/);
    });

    it('refuses to start without the superuser password, naming it', async () => {
      const run = await runScript('setup-databases.sh', { PATH: process.env.PATH!, TEMPORAL_DB_HOST: 'postgres', TEMPORAL_DB_USER: 'temporal', TEMPORAL_DB_PASSWORD: 'x' });
      assert.notEqual(run.code, 0);
      assert.match(run.output, /POSTGRES_PASSWORD: the Postgres superuser password/);
    });
  });
});
