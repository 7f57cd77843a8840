import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { MAX_CREDIT_AMOUNT } from '../../api/schemas/admin';
import { KEY_PREFIX_LENGTH } from '../../domain/api-key-secret';
import { call } from './http';
import { stack } from './stack';

// One Schemathesis run against our API from its own OpenAPI document, shared by the CI run
// (test/openapi/fuzz.test.ts) and the long one (`npm run fuzz`, test/openapi/fuzz-long.ts); they
// differ only in budget. Each run gets a fresh organization made through the operator API, given
// credits enough that generations run rather than stop at 402 and a rate limit high enough that
// the run is not mostly 429s, and one Schemathesis configuration file in a temporary folder. The
// keys reach Schemathesis through its environment, never the file.

/** The four checks the issue names: a 5xx, a status, a body or a content type the document does not give. */
export const FUZZ_CHECKS = ['not_a_server_error', 'status_code_conformance', 'response_schema_conformance', 'content_type_conformance'] as const;

const HOOKS = path.join(__dirname, '..', 'openapi', 'fuzz_hooks.py');

/** The highest rate limit an organization may have (api/schemas/admin.ts): 16,666 requests a second. */
const FUZZ_RATE_LIMIT_PER_MINUTE = 1_000_000;

export interface FuzzBudget {
  /** Cases per operation and phase (Schemathesis's --max-examples). */
  maxExamples: number;
  seed: number;
  /** Concurrent Schemathesis workers. */
  workers: number;
  /** Longest chain of linked calls (create → get → cancel) in the stateful phase. */
  statefulMaxSteps: number;
}

export interface FuzzCredentials {
  /** The organization's key, for the `ApiKey` security scheme. */
  apiKey: string;
  /** The operator token, for the `AdminToken` security scheme. */
  adminToken: string;
}

/** The figures of Schemathesis's JSON report (schemathesis/cli/json_report.py) that a run is judged by. */
export interface FuzzReport {
  stop_reason: string;
  operations: { total: number; selected: number; tested: number; errored: number; skipped: number };
  phases: Record<string, { status: string; skip_reason: string | null }>;
  test_cases: { generated: number; with_failures: number; unique_failures: number; errored: number };
  failures: { code: string; title: string; count: number; operations: string[] }[];
  errors: { title: string; count: number }[];
  /** Each kind of warning, with the operations it concerns (empty kinds too). */
  warnings: Record<string, string[]>;
}

export interface FuzzResult {
  exitCode: number;
  /** Schemathesis's own report: progress, each failure with its reproduction, the summary. */
  output: string;
  /** Undefined when it wrote none (it failed before running anything: the output says why). */
  report?: FuzzReport;
  seconds: number;
}

/**
 * A fresh organization for a fuzz run: the top of the credit range (the run spends for real, on
 * the simulator), and the top of the rate limit range, through the operator API.
 */
export interface FuzzOrganization {
  id: string;
  liveKey: string;
  /** The live key's id and its owner's: the run must not change them (test/openapi/fuzz_hooks.py). */
  keyId: string;
  ownerId: string;
}

export async function fuzzOrganization(): Promise<FuzzOrganization> {
  const created = await call('POST', '/admin/v1/organizations', {
    key: stack().adminToken,
    body: { name: `Fuzz org ${Math.random().toString(36).slice(2, 8)}`, plan: 'pro', credits: MAX_CREDIT_AMOUNT },
  });
  if (created.status !== 201) throw new Error(`creating the fuzz organization: ${created.status} ${JSON.stringify(created.body)}`);
  const key = (created.body.api_keys as { id: string; environment: string; secret: string }[]).find((k) => k.environment === 'live')!;
  const org: FuzzOrganization = { id: created.body.id, liveKey: key.secret, keyId: key.id, ownerId: created.body.owner.id };
  const limited = await call('PATCH', `/admin/v1/organizations/${org.id}`, { key: stack().adminToken, body: { rate_limit_per_minute: FUZZ_RATE_LIMIT_PER_MINUTE } });
  if (limited.status !== 200) throw new Error(`raising the fuzz organization's rate limit: ${limited.status} ${JSON.stringify(limited.body)}`);
  return org;
}

/**
 * What the fuzzer could change about its own organization that would leave the rest of its run
 * testing little: the organization paused or throttled, its key revoked, narrowed, fenced by an IP
 * allowlist or a budget, or its credits drained. Compared before and after a run; a difference
 * fails the run, since findings from a crippled run would not mean what they say.
 */
export async function fuzzOrganizationState(org: FuzzOrganization): Promise<Record<string, unknown>> {
  const admin = await call('GET', `/admin/v1/organizations/${org.id}`, { key: stack().adminToken });
  const keys = await call('GET', '/v1/api-keys', { key: org.liveKey });
  const balance = await call('GET', '/v1/balance', { key: org.liveKey });
  const key = await stack()
    .knex('api_keys')
    .join('users', 'users.id', 'api_keys.user_id')
    .where({ 'api_keys.organization_id': org.id, 'api_keys.prefix': org.liveKey.slice(0, KEY_PREFIX_LENGTH) })
    .first('api_keys.role', 'api_keys.scopes', 'api_keys.monthly_budget_usd', 'api_keys.ip_allowlist', 'api_keys.revoked_at', { user_role: 'users.role' }, 'users.deactivated_at');
  return {
    paused: admin.body?.paused,
    rate_limit_per_minute: admin.body?.rate_limit_per_minute,
    'GET /v1/api-keys with its key': keys.status,
    key,
    'at least half its credits left': balance.status === 200 && (balance.body.available_credits as number) >= MAX_CREDIT_AMOUNT / 2,
  };
}

/** Which catalog models each creating operation's body names (`model`, or a comparison's `models`), by operationId. */
const MODEL_FIELDS: Record<string, { modality: string; field: string }> = {
  createImage: { modality: 'image', field: 'body.model' },
  createVideo: { modality: 'video', field: 'body.model' },
  createVoice: { modality: 'voice', field: 'body.model' },
  createMusic: { modality: 'music', field: 'body.model' },
  createAvatar: { modality: 'avatar', field: 'body.model' },
  createChat: { modality: 'chat', field: 'body.model' },
  openAiChatCompletion: { modality: 'chat', field: 'body.model' },
  createThreeD: { modality: '3d', field: 'body.model' },
  createUpscale: { modality: 'upscale', field: 'body.model' },
  createComparison: { modality: 'image', field: 'body.models[*]' },
};

/**
 * The catalog's slugs by modality, read through GET /v1/models. The document says only that a
 * model is a string, so a fuzzer left alone names a model that exists about never: every creation
 * would stop at 404 and nothing would reach a workflow, a generation to read, or one to cancel.
 */
export async function catalogModels(key: string): Promise<Record<string, string[]>> {
  const res = await call('GET', '/v1/models', { key });
  if (res.status !== 200) throw new Error(`GET /v1/models: ${res.status} ${JSON.stringify(res.body)}`);
  const byModality: Record<string, string[]> = {};
  for (const model of res.body.data as { slug: string; modality: string }[]) (byModality[model.modality] ??= []).push(model.slug);
  return byModality;
}

/**
 * Schemathesis's configuration: each security scheme of the document gets its credential from the
 * environment, and half the bodies of each creating operation name a real model of its modality
 * (a fuzz dictionary); the other half stay as the schema makes them.
 */
function configFile(budget: FuzzBudget, models: Record<string, string[]>): string {
  const dictionaries = Object.entries(models).flatMap(([modality, slugs]) => [`[dictionaries.${JSON.stringify(`models-${modality}`)}]`, `values = ${JSON.stringify(slugs)}`, '']);
  const operations = Object.entries(MODEL_FIELDS)
    .filter(([, { modality }]) => models[modality]?.length)
    .flatMap(([operationId, { modality, field }]) => [
      '[[operations]]',
      `include-operation-id = ${JSON.stringify(operationId)}`,
      `parameters = { ${JSON.stringify(field)} = { dictionary = ${JSON.stringify(`models-${modality}`)}, probability = 0.5 } }`,
      '',
    ]);
  return [
    `seed = ${budget.seed}`,
    `workers = ${budget.workers}`,
    // A synchronous generation may hold its request up to SYNC_TIMEOUT_MS (15 s on the test stack).
    'request-timeout = 60',
    '',
    '[generation]',
    `max-examples = ${budget.maxExamples}`,
    // No example database: a run is its seed alone, not what earlier runs left behind. It also keeps
    // Hypothesis from pareto-optimising, whose shrinker crashed a 1000-example run (IndexError).
    'database = "none"',
    '',
    '[phases.stateful]',
    `max-steps = ${budget.statefulMaxSteps}`,
    '',
    '[auth.openapi.ApiKey]',
    'bearer = "${FUZZ_API_KEY}"',
    '',
    '[auth.openapi.AdminToken]',
    'bearer = "${FUZZ_ADMIN_TOKEN}"',
    '',
    ...dictionaries,
    ...operations,
  ].join('\n');
}

/**
 * Runs `st run` on `schema` (the document's URL, or a file) against `baseUrl` with every phase
 * (examples, coverage, fuzzing, stateful) and the four checks; resolves with its exit code and
 * output, which `onOutput` also sees as it comes.
 */
export async function runSchemathesis(opts: {
  st: string;
  schema: string;
  baseUrl: string;
  credentials: FuzzCredentials;
  /** The organization whose key the run holds: changes to it, its key and its owner are not sent. */
  organization: FuzzOrganization;
  budget: FuzzBudget;
  /** The catalog's slugs by modality (catalogModels). */
  models: Record<string, string[]>;
  onOutput?: (chunk: string) => void;
}): Promise<FuzzResult> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'schemathesis-'));
  try {
    const config = path.join(dir, 'schemathesis.toml');
    await writeFile(config, configFile(opts.budget, opts.models));
    const report = path.join(dir, 'report.json');
    const args = [
      '--config-file',
      config,
      'run',
      opts.schema,
      '--url',
      opts.baseUrl,
      '--checks',
      FUZZ_CHECKS.join(','),
      '--phases',
      'examples,coverage,fuzzing,stateful',
      '--report',
      'json',
      '--report-json-path',
      report,
      '--no-color',
    ];
    const started = Date.now();
    let output = '';
    const exitCode = await new Promise<number>((resolve, reject) => {
      const child = spawn(opts.st, args, {
        cwd: dir,
        env: {
          PATH: process.env.PATH,
          HOME: process.env.HOME,
          COLUMNS: '160',
          FUZZ_API_KEY: opts.credentials.apiKey,
          FUZZ_ADMIN_TOKEN: opts.credentials.adminToken,
          SCHEMATHESIS_HOOKS: HOOKS,
          FUZZ_PROTECTED_KEY_ID: opts.organization.keyId,
          FUZZ_PROTECTED_USER_ID: opts.organization.ownerId,
          FUZZ_PROTECTED_ORGANIZATION_ID: opts.organization.id,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        opts.onOutput?.(chunk.toString());
      };
      child.stdout.on('data', onData);
      child.stderr.on('data', onData);
      child.once('error', reject);
      child.once('exit', (code, signal) => resolve(code ?? (signal ? 128 : 1)));
    });
    const json = await readFile(report, 'utf8').catch(() => undefined);
    return { exitCode, output, report: json ? (JSON.parse(json) as FuzzReport) : undefined, seconds: (Date.now() - started) / 1000 };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** One line per figure: cases, failures by check, errors, warnings; for a test's message and the long run's summary. */
export function describeFuzzReport(report: FuzzReport | undefined): string {
  if (!report) return 'Schemathesis wrote no report';
  const lines = [
    `operations: ${report.operations.tested} tested of ${report.operations.selected} selected (${report.operations.errored} errored, ${report.operations.skipped} skipped)`,
    `phases: ${Object.entries(report.phases)
      .map(([phase, { status }]) => `${phase} ${status}`)
      .join(', ')}`,
    `test cases: ${report.test_cases.generated} generated, ${report.test_cases.with_failures} with failures (${report.test_cases.unique_failures} unique), ${report.test_cases.errored} errored`,
    ...report.failures.map((f) => `failure ${f.code}: ${f.title} x${f.count} (${f.operations.join(', ')})`),
    ...report.errors.map((e) => `error: ${e.title} x${e.count}`),
    ...Object.entries(report.warnings)
      .filter(([, operations]) => operations.length > 0)
      .map(([kind, operations]) => `warning ${kind}: ${operations.join(', ')}`),
    `stop reason: ${report.stop_reason}`,
  ];
  return lines.join('\n');
}

/**
 * Ends what a run leaves going, so it does not weigh on the tests after it: the run subscribes
 * dozens of webhooks to its organization, each with deliveries retrying to hosts that do not
 * answer. Deleting a subscription ends its deliveries (workflows/webhook-delivery.ts); pausing the
 * organization admits nothing more. It throws only when the organization cannot be paused.
 */
export async function endFuzzOrganization(org: FuzzOrganization): Promise<void> {
  for (;;) {
    const page = await call('GET', '/v1/webhooks?limit=100', { key: org.liveKey });
    // A run that revoked its key (a failure fuzzOrganizationState reports) leaves its webhooks to their schedules.
    if (page.status !== 200) break;
    const ids = (page.body.data as { id: string }[]).map((w) => w.id);
    if (ids.length === 0) break;
    for (const id of ids) {
      const deleted = await call('DELETE', `/v1/webhooks/${id}`, { key: org.liveKey });
      if (deleted.status !== 200) throw new Error(`deleting webhook ${id}: ${deleted.status} ${JSON.stringify(deleted.body)}`);
    }
  }
  const paused = await call('PATCH', `/admin/v1/organizations/${org.id}`, { key: stack().adminToken, body: { paused: true } });
  if (paused.status !== 200) throw new Error(`pausing the fuzz organization: ${paused.status} ${JSON.stringify(paused.body)}`);
}
