import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { HeadObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { Client, Connection } from '@temporalio/client';
import knexFactory, { type Knex } from 'knex';
import pg from 'pg';
import { createKnex } from '../../db/knex';
import { classifyDependencyError } from '../../lib/dependency-errors';
import { freePort } from '../../lib/free-port';
import { waitFor } from '../helpers/http';
import { stack } from '../helpers/stack';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy';

// Every error here comes from a real failure of a real client (knex and pg against the test
// Postgres, the Temporal client against the test server, each made unreachable through a TCP
// proxy or a closed port), except the one SQLSTATE that cannot be produced on demand.

/** The rejection of `work`, which must fail. */
async function failureOf(work: () => PromiseLike<unknown>): Promise<unknown> {
  try {
    await work();
  } catch (err) {
    return err;
  }
  throw new Error('expected a failure');
}

function postgresTcp(): { host: string; port: number; url: (port: number) => string } {
  const url = new URL(stack().config.databaseUrl!);
  return {
    host: '127.0.0.1',
    port: Number(url.port),
    url: (port) => `postgres://${url.username}:${url.password}@127.0.0.1:${port}${url.pathname}`,
  };
}

function temporalTcp(): { host: string; port: number } {
  const [host, port] = stack().config.temporalAddress!.split(':');
  return { host: host!, port: Number(port) };
}

describe('classifyDependencyError', () => {
  const cleanups: (() => Promise<unknown>)[] = [];
  /** `thing`, closed after the test whatever its outcome. */
  const later = <T extends Knex | TcpProxy>(thing: T): T => {
    cleanups.push(() => ('freeze' in thing ? thing.close() : thing.destroy()));
    return thing;
  };
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
  });

  describe('Postgres outages', () => {
    it('names Postgres when the database refuses the connection', async () => {
      const knex = later(createKnex(postgresTcp().url(await freePort())));
      const err = await failureOf(() => knex.raw('select 1'));
      assert.equal((err as { code?: string }).code, 'ECONNREFUSED');
      assert.equal(classifyDependencyError(err), 'postgres');
    });

    it('names Postgres when its Unix socket is gone (a stopped server on a socket DATABASE_URL)', async () => {
      const url = new URL(stack().config.databaseUrl!);
      const missing = `/tmp/no-such-postgres-${process.pid}-${Date.now()}`;
      const knex = later(createKnex(`postgres://${url.username}:${url.password}@${encodeURIComponent(missing)}:${url.port || 5432}${url.pathname}`));
      const err = await failureOf(() => knex.raw('select 1'));
      assert.equal((err as { code?: string }).code, 'ENOENT');
      assert.equal(classifyDependencyError(err), 'postgres');
      // A missing file is not an outage.
      assert.equal(classifyDependencyError(Object.assign(new Error('no file'), { code: 'ENOENT', syscall: 'open' })), undefined);
    });

    it('names Postgres when a frozen server never answers a new connection', async function () {
      this.timeout(10_000);
      const proxy = later(await startTcpProxy(postgresTcp()));
      proxy.freeze();
      const knex = later(createKnex(postgresTcp().url(proxy.port)));
      const err = await failureOf(() => knex.raw('select 1'));
      assert.equal(classifyDependencyError(err), 'postgres', String(err));
      await proxy.restore();
    });

    it('names Postgres when a statement on an open connection gets no answer before the query timeout', async () => {
      const proxy = later(await startTcpProxy(postgresTcp()));
      const knex = later(createKnex(postgresTcp().url(proxy.port), { queryTimeoutMs: 300 }));
      await knex.raw('select 1');
      proxy.freeze();
      const err = await failureOf(() => knex.raw('select 1'));
      assert.match(String(err), /Query read timeout/);
      assert.equal(classifyDependencyError(err), 'postgres');
      await proxy.restore();
    });

    it('names Postgres when the server closes the connection under a pooled client', async () => {
      const proxy = later(await startTcpProxy(postgresTcp()));
      const knex = later(createKnex(postgresTcp().url(proxy.port)));
      await knex.raw('select 1');
      const sleeping = failureOf(() => knex.raw('select pg_sleep(10)'));
      await proxy.refuse();
      const err = await sleeping;
      assert.equal(classifyDependencyError(err), 'postgres', String(err));
    });

    it('names Postgres when the server terminates the backend (57P01 admin_shutdown)', async () => {
      const knex = later(createKnex(stack().config.databaseUrl!, { poolMax: 1 }));
      const { pid } = (await knex.raw('select pg_backend_pid() as pid')).rows[0];
      const sleeping = failureOf(() => knex.raw('select pg_sleep(10)'));
      // Terminate only once the sleep is running on that backend.
      await waitFor(
        async () => {
          const { rows } = await stack().knex.raw(`select 1 from pg_stat_activity where pid = ? and query like 'select pg_sleep%'`, [pid]);
          return rows.length > 0;
        },
        5_000,
        'the sleep to start',
      );
      await stack().knex.raw('select pg_terminate_backend(?)', [pid]);
      const err = await sleeping;
      assert.equal((err as { code?: string }).code, '57P01');
      assert.equal(classifyDependencyError(err), 'postgres');
    });

    it('names Postgres when Postgres is starting up or shutting down (57P03 cannot_connect_now)', () => {
      // Built with pg's own class: a server in that state cannot be produced on demand here.
      const err = Object.assign(new pg.DatabaseError('the database system is starting up', 0, 'error'), { code: '57P03', severity: 'FATAL' });
      assert.equal(classifyDependencyError(err), 'postgres');
    });

    it('names Postgres when knex times out waiting for a pooled connection', async () => {
      const knex: Knex = later(knexFactory({ client: 'pg', connection: stack().config.databaseUrl!, pool: { min: 0, max: 1 }, acquireConnectionTimeout: 200 }));
      const trx = await knex.transaction();
      const err = await failureOf(() => knex.raw('select 1'));
      await trx.rollback();
      assert.equal((err as Error).name, 'KnexTimeoutError');
      assert.equal(classifyDependencyError(err), 'postgres');
    });
  });

  describe('Temporal outages', () => {
    it('names Temporal for UNAVAILABLE when the server refuses the connection', async () => {
      // Without the client's retry interceptor the refusal surfaces at once, as UNAVAILABLE.
      const connection = Connection.lazy({ address: `127.0.0.1:${await freePort()}`, interceptors: [] });
      cleanups.push(() => connection.close());
      const client = new Client({ connection });
      const raw = await failureOf(() => client.workflowService.getSystemInfo({}));
      assert.equal((raw as { code?: number }).code, 14);
      assert.equal(classifyDependencyError(raw), 'temporal');
      // The workflow client wraps it in its ServiceError, with the gRPC error as the cause.
      const wrapped = await failureOf(() => client.workflow.getHandle('gen_unreachable').cancel());
      assert.equal((wrapped as Error).name, 'ServiceError');
      assert.equal(classifyDependencyError(wrapped), 'temporal');
    });

    it('names Temporal for DEADLINE_EXCEEDED when a frozen server never answers', async () => {
      const proxy = later(await startTcpProxy(temporalTcp()));
      const connection = await Connection.connect({ address: proxy.address });
      cleanups.push(() => connection.close());
      const client = new Client({ connection });
      proxy.freeze();
      const err = await failureOf(() => client.withDeadline(Date.now() + 300, () => client.workflow.getHandle('gen_frozen').signal('poke')));
      assert.equal((err as { cause?: { code?: number } }).cause?.code, 4);
      assert.equal(classifyDependencyError(err), 'temporal');
      await proxy.restore();
    });
  });

  describe('everything else', () => {
    it('leaves query errors alone: they are bugs, not outages', async () => {
      assert.equal(classifyDependencyError(await failureOf(() => stack().knex.raw('select 1/0'))), undefined);
      assert.equal(classifyDependencyError(await failureOf(() => stack().knex.raw('selec 1'))), undefined);
    });

    it('leaves a Temporal answer alone: a workflow that does not exist is not an outage', async () => {
      const err = await failureOf(() => stack().temporal.workflow.getHandle('gen_never_started').cancel());
      assert.equal((err as Error).name, 'WorkflowNotFoundError');
      assert.equal(classifyDependencyError(err), undefined);
    });

    it('leaves an S3 client that cannot connect alone: storage is not the database', async () => {
      const s3 = new S3Client({
        endpoint: `http://127.0.0.1:${await freePort()}`,
        region: 'us-east-1',
        forcePathStyle: true,
        maxAttempts: 1,
        credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
      });
      const err = await failureOf(() => s3.send(new HeadObjectCommand({ Bucket: 'b', Key: 'k' })));
      s3.destroy();
      assert.equal((err as { code?: string }).code, 'ECONNREFUSED');
      assert.equal(classifyDependencyError(err), undefined);
    });

    it('leaves a download that breaks off alone: a remote server is not the database', async () => {
      const server = http.createServer((_req, res) => {
        res.writeHead(200, { 'Content-Length': '1000' });
        res.write('partial', () => res.destroy());
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const port = (server.address() as AddressInfo).port;
      const err = await failureOf(
        () =>
          new Promise((resolve, reject) => {
            http.get(`http://127.0.0.1:${port}/`, (res) => {
              (async () => {
                for await (const chunk of res) void chunk;
              })().then(() => resolve(undefined), reject);
            });
          }),
      );
      server.close();
      assert.equal((err as { code?: string }).code, 'ECONNRESET');
      assert.equal(classifyDependencyError(err), undefined);
    });

    it('leaves non-errors and plain errors alone', () => {
      assert.equal(classifyDependencyError(new Error('something broke')), undefined);
      assert.equal(classifyDependencyError('ECONNREFUSED'), undefined);
      assert.equal(classifyDependencyError(undefined), undefined);
    });
  });
});
