import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { startApiServer } from '../api/server';
import { createKnex } from '../db/knex';
import { migrateToLatest } from '../db/migrate';
import { loadConfig, type Config } from '../lib/config';
import { generateSecretBoxKey } from '../lib/secret-box';
import { createLogger, describeError } from '../lib/logger';
import { startWorker } from '../worker/run-worker';
import { startEmbeddedPostgres } from './postgres';
import { PROJECT_ROOT } from './temporal-cli';
import { startTemporalDevServer } from './temporal-server';

// `npm start`: with no DATABASE_URL / TEMPORAL_ADDRESS it brings up Postgres and a Temporal dev
// server under .data/, then the API and a worker in this process, and a demo organization.

const DATA_DIR = path.join(PROJECT_ROOT, '.data');
const SECRETS_FILE = path.join(DATA_DIR, 'secrets.json');
const DEMO_FILE = path.join(DATA_DIR, 'demo.json');

interface LocalSecrets {
  adminToken: string;
  urlSigningSecret: string;
  /** Encrypts webhook secrets at rest (WEBHOOK_SECRETS_KEY). */
  webhookSecretsKey: string;
}

interface DemoOrganization {
  organizationId: string;
  liveKey: string;
  testKey: string;
}

async function readJson<T>(file: string): Promise<T | undefined> {
  return existsSync(file) ? (JSON.parse(await readFile(file, 'utf8')) as T) : undefined;
}

/** Generated once per checkout and kept in .data/ (git-ignored), so restarts keep their tokens. */
async function localSecrets(): Promise<LocalSecrets> {
  const existing = await readJson<Partial<LocalSecrets>>(SECRETS_FILE);
  if (existing?.adminToken && existing.urlSigningSecret && existing.webhookSecretsKey) return existing as LocalSecrets;
  // A data folder from before webhooks keeps its secrets and gains the key.
  const secrets: LocalSecrets = {
    adminToken: existing?.adminToken ?? `adm_${randomBytes(24).toString('hex')}`,
    urlSigningSecret: existing?.urlSigningSecret ?? randomBytes(32).toString('hex'),
    webhookSecretsKey: existing?.webhookSecretsKey ?? generateSecretBoxKey(),
  };
  await writeFile(SECRETS_FILE, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  return secrets;
}

async function ensureDemoOrganization(config: Config, apiUrl: string): Promise<DemoOrganization> {
  const knex = createKnex(config.databaseUrl ?? '');
  try {
    const saved = await readJson<DemoOrganization>(DEMO_FILE);
    if (saved && (await knex('organizations').where({ id: saved.organizationId }).first())) return saved;
  } finally {
    await knex.destroy();
  }
  const response = await fetch(`${apiUrl}/admin/v1/organizations`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${config.adminToken}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'Demo', plan: 'pro', credits: 100_000 }),
  });
  if (response.status !== 201) throw new Error(`creating the demo organization failed: ${await response.text()}`);
  const created = (await response.json()) as { id: string; api_keys: { environment: string; secret: string }[] };
  const secretFor = (env: string) => created.api_keys.find((k) => k.environment === env)?.secret ?? '';
  const demo = { organizationId: created.id, liveKey: secretFor('live'), testKey: secretFor('test') };
  // Only this local demo's keys are kept in plaintext, so that every `npm start` can print them.
  await writeFile(DEMO_FILE, JSON.stringify(demo, null, 2), { mode: 0o600 });
  return demo;
}

async function main() {
  const stops: (() => Promise<void>)[] = [];
  const log = createLogger({ base: { service: 'start' } });
  const say = (line: string) => process.stderr.write(`${line}\n`);
  let stopping = false;
  const stopAll = async (code: number) => {
    if (stopping) return;
    stopping = true;
    say('stopping…');
    for (const stop of stops.reverse()) await stop().catch((err) => log.error('stop failed', describeError(err)));
    process.exit(code);
  };
  process.once('SIGINT', () => void stopAll(0)).once('SIGTERM', () => void stopAll(0));

  try {
    const env = process.env;
    const embeddedPostgres = !env.DATABASE_URL;
    const embeddedTemporal = !env.TEMPORAL_ADDRESS;
    const embedded = embeddedPostgres || embeddedTemporal;
    await mkdir(DATA_DIR, { recursive: true });
    const secrets = embedded ? await localSecrets() : undefined;
    const config: Config = loadConfig(env, { embedded });
    config.adminToken ??= secrets?.adminToken;
    config.urlSigningSecret ??= secrets?.urlSigningSecret;
    config.webhookSecretsKey ??= secrets?.webhookSecretsKey;
    if (embedded && !env.LOCAL_STORAGE_DIR) config.localStorageDir = path.join(DATA_DIR, 'storage');

    if (embeddedPostgres) {
      say('starting embedded Postgres (.data/postgres)…');
      const pg = await startEmbeddedPostgres({
        dataDir: path.join(DATA_DIR, 'postgres'),
        port: Number(env.EMBEDDED_POSTGRES_PORT ?? 54329),
        database: 'generation_service',
        persistent: true,
      });
      stops.push(pg.stop);
      config.databaseUrl = pg.databaseUrl;
    }
    let temporalUi: string | undefined;
    if (embeddedTemporal) {
      say('starting the Temporal dev server (.data/temporal.db)…');
      const temporal = await startTemporalDevServer({
        port: Number(env.EMBEDDED_TEMPORAL_PORT ?? 7233),
        uiPort: Number(env.EMBEDDED_TEMPORAL_UI_PORT ?? 8233),
        dbFilename: path.join(DATA_DIR, 'temporal.db'),
        log: say,
      });
      stops.push(temporal.stop);
      config.temporalAddress = temporal.address;
      temporalUi = temporal.uiUrl;
    }

    const knex = createKnex(config.databaseUrl ?? '');
    await migrateToLatest(knex).finally(() => knex.destroy());

    const logger = createLogger({ level: config.logLevel });
    const worker = await startWorker(config, logger.child({ service: 'worker' }));
    stops.push(worker.stop);
    const api = await startApiServer(config, logger.child({ service: 'api' }));
    stops.push(api.close);

    const lines = ['', `API            ${api.url}`];
    if (temporalUi) lines.push(`Temporal UI    ${temporalUi}`);
    if (embedded) {
      const demo = await ensureDemoOrganization(config, api.url);
      lines.push(
        `ADMIN_TOKEN    ${config.adminToken}`,
        `Demo org       ${demo.organizationId} (Pro plan)`,
        `Live key       ${demo.liveKey}`,
        `Test key       ${demo.testKey}`,
        '',
        'Try it:',
        `  curl -s ${api.url}/v1/images -H "Authorization: Bearer ${demo.testKey}" \\`,
        `       -H "Content-Type: application/json" -d '{"model":"flux-schnell","prompt":"a lighthouse at dawn"}'`,
      );
    }
    lines.push('', 'Ctrl-C stops everything.', '');
    say(lines.join('\n'));
  } catch (err) {
    log.error('npm start failed', describeError(err));
    await stopAll(1);
  }
}

void main();
