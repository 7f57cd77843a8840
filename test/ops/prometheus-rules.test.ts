import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { stringify } from 'yaml';
import { ensurePromtool } from '../../embedded/promtool';
import { PROJECT_ROOT } from '../../embedded/temporal-cli';
import { ALERTS_FILE, ALERTS_TEST_FILE, PROMETHEUS_CONFIG_FILE, alertRuleTests, alertRules, dashboardExpressions, dashboards } from '../helpers/ops-files';

// The alert rules and Prometheus configuration under ops/prometheus, checked by Prometheus' own
// promtool (built from its Go module on first use: embedded/promtool.ts), and the rules' unit tests
// on synthetic series (ops/prometheus/alerts.test.yml), which must make every alert fire once and
// stay silent once. The dashboards' queries go through the same PromQL parser.

const run = promisify(execFile);

/** The anchors GitHub gives the headings of a Markdown file. */
function headingAnchors(markdown: string): Set<string> {
  const headings = [...markdown.matchAll(/^#{1,6}\s+(.+?)\s*$/gm)].map((match) => match[1]!);
  return new Set(
    headings.map((heading) =>
      heading
        .toLowerCase()
        .replace(/[^\p{L}\p{N}\s_-]/gu, '')
        .replace(/\s/g, '-'),
    ),
  );
}

describe('the Prometheus alert rules and configuration under ops/prometheus', () => {
  let promtool: string;

  before(async function () {
    // The first run on a machine builds promtool into .tools/bin: about 3.5 CPU-minutes with an
    // empty Go build cache (under 5 minutes on the project's busy 2-core machine), 10 s with a warm one.
    this.timeout(1_200_000);
    promtool = await ensurePromtool((line) => process.stderr.write(`  [promtool] ${line}\n`));
  });

  it('pass promtool check rules', async () => {
    const { stdout } = await run(promtool, ['check', 'rules', ALERTS_FILE]);
    assert.match(stdout, new RegExp(`SUCCESS: ${alertRules().length} rules found`));
  });

  it('pass their unit tests (promtool test rules on ops/prometheus/alerts.test.yml)', async function () {
    this.timeout(60_000);
    const { stdout } = await run(promtool, ['test', 'rules', ALERTS_TEST_FILE], { cwd: path.dirname(ALERTS_TEST_FILE) });
    assert.match(stdout, /SUCCESS/);
  });

  it('have, for every alert, a unit test where it fires and one where it stays silent', () => {
    const cases = alertRuleTests();
    const alerts = alertRules().map((rule) => rule.alert);
    for (const alert of alerts) {
      const own = cases.filter((check) => check.alertname === alert);
      assert.ok(
        own.some((check) => (check.exp_alerts ?? []).length > 0),
        `no test makes ${alert} fire`,
      );
      assert.ok(
        own.some((check) => (check.exp_alerts ?? []).length === 0),
        `no test keeps ${alert} silent`,
      );
    }
    for (const check of cases) assert.ok(alerts.includes(check.alertname), `"${check.test}" tests ${check.alertname}, which is no alert`);
  });

  it('give every alert a for, a severity, a summary, a description and a runbook section in docs/operations.md', () => {
    const anchors = headingAnchors(readFileSync(path.join(PROJECT_ROOT, 'docs', 'operations.md'), 'utf8'));
    for (const rule of alertRules()) {
      assert.match(rule.for ?? '', /^\d+[smh]$/, `${rule.alert} has no for:`);
      assert.ok(['critical', 'warning'].includes(rule.labels?.severity ?? ''), `${rule.alert}: severity ${rule.labels?.severity}`);
      assert.ok(rule.annotations?.summary && rule.annotations.description, `${rule.alert} lacks a summary or a description`);
      const runbook = /^docs\/operations\.md#(.+)$/.exec(rule.annotations.runbook ?? '');
      assert.ok(runbook, `${rule.alert}: runbook ${rule.annotations.runbook}`);
      assert.ok(anchors.has(runbook[1]!), `${rule.alert}: docs/operations.md has no section #${runbook[1]}`);
    }
  });

  it('load with the compose Prometheus configuration (promtool check config)', async () => {
    const { stdout } = await run(promtool, ['check', 'config', PROMETHEUS_CONFIG_FILE]);
    assert.match(stdout, /SUCCESS: 1 rule files found/);
    assert.match(stdout, /is valid prometheus config file syntax/);
  });
});

describe('the dashboards’ queries', () => {
  let promtool: string;
  let folder: string;

  before(async function () {
    this.timeout(1_200_000);
    promtool = await ensurePromtool((line) => process.stderr.write(`  [promtool] ${line}\n`));
    folder = await mkdtemp(path.join(os.tmpdir(), 'dashboard-queries-'));
  });

  after(() => rm(folder, { recursive: true, force: true }));

  it('are PromQL Prometheus parses, Grafana’s variables filled in', async () => {
    // Each query as a recording rule, the way Grafana sends it: its variables replaced by values.
    const fill = (expr: string) =>
      expr
        .replace(/\$__rate_interval|\$__interval/g, '1m')
        .replace(/\$__range/g, '1h')
        .replace(/\$\{\w+(?::\w+)?\}|\$\w+/g, '.*');
    const rules = dashboards().flatMap(({ json }) => dashboardExpressions(json).map(fill));
    const file = path.join(folder, 'dashboard-queries.yml');
    await writeFile(file, stringify({ groups: [{ name: 'dashboard-queries', rules: rules.map((expr, i) => ({ record: `dashboard:query_${i}`, expr })) }] }));
    const { stdout } = await run(promtool, ['check', 'rules', file]);
    assert.match(stdout, new RegExp(`SUCCESS: ${rules.length} rules found`));
  });
});
