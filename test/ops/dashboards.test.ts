import assert from 'node:assert/strict';
import { dashboardExpressions, dashboardPanels, dashboards, provisionedDatasourceUid } from '../helpers/ops-files';

// The Grafana dashboards under ops/grafana/dashboards load as compose provisions them: valid JSON
// in the current schema, every query on the provisioned Prometheus (by uid), every variable a
// query uses defined, panel ids unique. What their queries read: promql-metric-names.test.ts;
// that the queries parse: prometheus-rules.test.ts.

/** Grafana's own variables, which need no definition. */
const BUILT_IN_VARIABLES = new Set(['__rate_interval', '__interval', '__interval_ms', '__range', '__range_s', '__range_ms', '__all']);

describe('the Grafana dashboards', () => {
  const all = dashboards();

  it('are the four the issue names, each valid JSON with a unique uid, in the schema of Grafana 11 and 12', () => {
    assert.deepEqual(all.map(({ file }) => file).sort(), ['providers.json', 'service-overview.json', 'temporal-sdk-health.json', 'webhooks.json']);
    const uids = all.map(({ json }) => json.uid as string);
    assert.equal(new Set(uids).size, uids.length, `duplicate uids: ${uids.join(', ')}`);
    for (const { file, json } of all) {
      assert.ok(typeof json.title === 'string' && json.title, `${file} has no title`);
      assert.ok(json.schemaVersion >= 39 && json.schemaVersion <= 42, `${file}: schemaVersion ${json.schemaVersion}`);
      assert.equal(json.id, undefined, `${file} carries a database id: provisioning assigns one`);
    }
  });

  it('query the provisioned Prometheus data source by its uid, in every panel and variable', () => {
    const uid = provisionedDatasourceUid();
    for (const { file, json } of all) {
      for (const panel of dashboardPanels(json).filter((p) => p.type !== 'row')) {
        assert.equal(panel.datasource?.uid, uid, `${file}, panel "${panel.title}"`);
        assert.ok(panel.targets?.length > 0, `${file}, panel "${panel.title}" has no query`);
        for (const target of panel.targets) assert.equal(target.datasource?.uid, uid, `${file}, panel "${panel.title}", ${target.refId}`);
      }
      for (const variable of json.templating.list.filter((v: { type: string }) => v.type === 'query')) {
        assert.equal(variable.datasource?.uid, uid, `${file}, variable ${variable.name}`);
      }
    }
  });

  it('define every variable their queries use', () => {
    for (const { file, json } of all) {
      const defined = new Set<string>(json.templating.list.map((variable: { name: string }) => variable.name));
      for (const expr of dashboardExpressions(json)) {
        for (const [, braced, plain] of expr.matchAll(/\$\{(\w+)(?::\w+)?\}|\$(\w+)/g)) {
          const name = (braced ?? plain)!;
          assert.ok(defined.has(name) || BUILT_IN_VARIABLES.has(name), `${file} uses $${name}, which it does not define: ${expr}`);
        }
      }
    }
  });

  it('give every panel a unique id and a place on the 24-column grid', () => {
    for (const { file, json } of all) {
      const panels = dashboardPanels(json);
      const ids = panels.map((panel) => panel.id as number);
      assert.equal(new Set(ids).size, ids.length, `${file} repeats a panel id`);
      for (const { title, gridPos } of panels) {
        assert.ok(gridPos && gridPos.x >= 0 && gridPos.w > 0 && gridPos.x + gridPos.w <= 24 && gridPos.h > 0, `${file}, panel "${title}": ${JSON.stringify(gridPos)}`);
      }
    }
  });
});
