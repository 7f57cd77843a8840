import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { PROJECT_ROOT } from '../../embedded/temporal-cli';
import { grafanaVariableExpression } from './promql-metric-names';

// The observability files under ops/ as the tests in test/ops/ and test/topology/ read them: the
// alert rules, their unit tests, the Grafana dashboards and the Temporal SDK's metric list.

export const OPS_DIR = path.join(PROJECT_ROOT, 'ops');
export const ALERTS_FILE = path.join(OPS_DIR, 'prometheus', 'alerts.yml');
export const ALERTS_TEST_FILE = path.join(OPS_DIR, 'prometheus', 'alerts.test.yml');
export const PROMETHEUS_CONFIG_FILE = path.join(OPS_DIR, 'prometheus', 'prometheus.yml');
export const DASHBOARDS_DIR = path.join(OPS_DIR, 'grafana', 'dashboards');
export const DATASOURCES_FILE = path.join(OPS_DIR, 'grafana', 'provisioning', 'datasources', 'prometheus.yml');

export interface AlertRule {
  alert: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

export function alertRules(): AlertRule[] {
  const file = parse(readFileSync(ALERTS_FILE, 'utf8')) as { groups: { rules: AlertRule[] }[] };
  return file.groups.flatMap((group) => group.rules);
}

export interface AlertRuleTest {
  eval_time: string;
  alertname: string;
  exp_alerts?: unknown[];
}

/** Each `alert_rule_test` case of alerts.test.yml, with the name of its test. */
export function alertRuleTests(): (AlertRuleTest & { test: string })[] {
  const file = parse(readFileSync(ALERTS_TEST_FILE, 'utf8')) as { tests: { name: string; alert_rule_test?: AlertRuleTest[] }[] };
  return file.tests.flatMap((test) => (test.alert_rule_test ?? []).map((check) => ({ ...check, test: test.name })));
}

export interface Dashboard {
  file: string;
  json: Record<string, any>;
}

export function dashboards(): Dashboard[] {
  return readdirSync(DASHBOARDS_DIR)
    .filter((name) => name.endsWith('.json'))
    .map((name) => ({ file: name, json: JSON.parse(readFileSync(path.join(DASHBOARDS_DIR, name), 'utf8')) as Record<string, any> }));
}

/** Every panel of a dashboard, those inside collapsed rows too. */
export function dashboardPanels(dashboard: Record<string, any>): Record<string, any>[] {
  return (dashboard.panels ?? []).flatMap((panel: Record<string, any>) => [panel, ...(panel.panels ?? [])]);
}

/** Every PromQL expression of a dashboard: its panels' targets and its variables' queries. */
export function dashboardExpressions(dashboard: Record<string, any>): string[] {
  const targets = dashboardPanels(dashboard).flatMap((panel) => (panel.targets ?? []).map((target: { expr?: string }) => target.expr));
  const variables = (dashboard.templating?.list ?? [])
    .filter((variable: { type: string }) => variable.type === 'query')
    .map((variable: { query: string | { query: string } }) => grafanaVariableExpression(typeof variable.query === 'string' ? variable.query : variable.query.query));
  return [...targets, ...variables].filter((expr): expr is string => typeof expr === 'string' && expr.trim() !== '');
}

/** The uid of the Prometheus data source Grafana is provisioned with. */
export function provisionedDatasourceUid(): string {
  const file = parse(readFileSync(DATASOURCES_FILE, 'utf8')) as { datasources: { uid: string; type: string }[] };
  const prometheus = file.datasources.filter((source) => source.type === 'prometheus');
  if (prometheus.length !== 1) throw new Error(`${DATASOURCES_FILE} provisions ${prometheus.length} Prometheus data sources, not one`);
  return prometheus[0]!.uid;
}

/** ops/temporal-sdk-metrics.txt: each Temporal SDK metric family and its Prometheus type. */
export function temporalSdkMetricFamilies(): { name: string; type: string }[] {
  return readFileSync(path.join(OPS_DIR, 'temporal-sdk-metrics.txt'), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.startsWith('#'))
    .map((line) => {
      const [name, type] = line.trim().split(/\s+/);
      return { name: name!, type: type! };
    });
}
