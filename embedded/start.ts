import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { startApiServer } from '../api/server';
import { createKnex } from '../db/knex';
import { migrateToLatest } from '../db/migrate';
import { loadConfig, type Config } from '../config';
import { createLogger, describeError } from '../lib/logger';
import { bundleWorkflowsInChildProcess } from '../worker/bundle-workflows';
import { startWorker } from '../worker/run-worker';
import { demoOrganizationLines, ensureDemoOrganization } from './demo-organization';
import { providerModeLine } from './provider-mode-line';
import { localSecrets } from './local-secrets';
import { startEmbeddedPostgres } from './postgres';
import { PROJECT_ROOT } from './temporal-cli';
import { buildDashboard } from './dashboard-build';
import { startTemporalDevServer } from './temporal-server';

// `npm start`: with no DATABASE_URL / TEMPORAL_ADDRESS it brings up Postgres and a Temporal dev
// server under .data/, then the API and a worker in this process, and a demo organization.

const DATA_DIR = path.join(PROJECT_ROOT, '.data');
const SECRETS_FILE = path.join(DATA_DIR, 'secrets.json');
const DEMO_FILE = path.join(DATA_DIR, 'demo.json');

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
    const secrets = embedded ? await localSecrets(SECRETS_FILE) : undefined;
    const config: Config = loadConfig(env, { embedded });
    config.adminToken ??= secrets?.adminToken;
    config.urlSigningSecret ??= secrets?.urlSigningSecret;
    config.webhookSecretsKey ??= secrets?.webhookSecretsKey;
    if (!config.providerSecretsKey && secrets) {
      config.providerSecretsKey = secrets.providerSecretsKey;
      config.providerSecretsPreviousKeys = secrets.providerSecretsPreviousKeys ?? [];
    }
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

    await buildDashboard(say);
    const knex = createKnex(config.databaseUrl ?? '');
    await migrateToLatest(knex).finally(() => knex.destroy());

    const logger = createLogger({ level: config.logLevel });
    // The worker and the API's own sync worker (API_EMBEDDED_WORKER) run in this process: one
    // bundle of the workflow code for both, built once (bundling is the slow part of a start).
    const workflowBundle = await bundleWorkflowsInChildProcess();
    const worker = await startWorker(config, logger.child({ service: 'worker' }), { workflowBundle });
    stops.push(worker.stop);
    const api = await startApiServer(config, logger.child({ service: 'api' }), undefined, { workflowBundle });
    stops.push(api.close);

    const lines = ['', `API            ${api.url}`, `Dashboard      ${api.url}/dashboard`, `API reference  ${api.url}/docs`, providerModeLine(config)];
    // Prometheus text (docs/operations.md, "Metrics"); API_METRICS_PORT / WORKER_METRICS_PORT=0 turn them off.
    if (api.metricsUrl) lines.push(`API metrics    ${api.metricsUrl}`);
    if (worker.metricsUrl) lines.push(`Worker metrics ${worker.metricsUrl}  (with the Temporal SDK's own)`);
    if (temporalUi) lines.push(`Temporal UI    ${temporalUi}`);
    if (embedded) {
      const demo = await ensureDemoOrganization({
        databaseUrl: config.databaseUrl ?? '',
        apiUrl: api.url,
        adminToken: config.adminToken ?? '',
        file: DEMO_FILE,
      });
      lines.push(...demoOrganizationLines(api.url, config.adminToken ?? '', demo));
    }
    lines.push('', 'Ctrl-C stops everything.', '');
    say(lines.join('\n'));
  } catch (err) {
    log.error('npm start failed', describeError(err));
    await stopAll(1);
  }
}

void main();
