import assert from 'node:assert/strict';
import { metricsRegistry } from '../../observability/metrics';
import { alertRules, dashboardExpressions, dashboards, temporalSdkMetricFamilies } from '../helpers/ops-files';
import { grafanaVariableExpression, promqlMetricNames } from '../helpers/promql-metric-names';

// Every query of the dashboards and every alert rule under ops/ reads only metrics the service
// exports: ours (observability/metrics.ts, read from the registry itself), the Temporal SDK core's
// (ops/temporal-sdk-metrics.txt) and Prometheus' own `up`. A renamed metric or a typo would leave
// a panel empty and an alert silent forever; this finds it.

const HISTOGRAM_SERIES = ['_bucket', '_sum', '_count'];

/** Every series name a scrape of the worker and the API can hold. */
async function exportedSeriesNames(): Promise<Set<string>> {
  const families = [...(await metricsRegistry.getMetricsAsJSON()).map(({ name, type }) => ({ name, type: String(type) })), ...temporalSdkMetricFamilies()];
  const names = families.flatMap(({ name, type }) => (type === 'histogram' ? HISTOGRAM_SERIES.map((suffix) => name + suffix) : [name]));
  return new Set([...names, 'up']);
}

describe('the metric names read from PromQL', () => {
  it('are the selectors, not the functions, aggregations, keywords, label names, ranges, offsets or numbers around them', () => {
    assert.deepEqual(promqlMetricNames('sum by (route) (rate(generation_service_http_requests_total{job=~"$job", status=~"5.."}[$__rate_interval]))'), [
      'generation_service_http_requests_total',
    ]);
    assert.deepEqual(promqlMetricNames('histogram_quantile(0.95, sum(rate(latency_bucket{le!="+Inf"}[5m])) by (le, task_queue))'), ['latency_bucket']);
    assert.deepEqual(promqlMetricNames('a / on (x) group_left (y) b offset 15m > bool 0.5 and c unless d @ 1609746000 or e offset -1h'), ['a', 'b', 'c', 'd', 'e']);
    assert.deepEqual(promqlMetricNames('up == 0'), ['up']);
    assert.deepEqual(promqlMetricNames('topk(10, sum without (instance) (rate(x_total[1h:5m])))'), ['x_total']);
    assert.deepEqual(promqlMetricNames('ns:requests:rate5m * 1e3 - on() vector(1)'), ['ns:requests:rate5m']);
  });

  it('ignore what strings hold: braces, parentheses, operators and names', () => {
    assert.deepEqual(promqlMetricNames('label_replace(up{job="a (b) {c}"}, "dst", "$1 or rate(fake)", "src", "(.*)")'), ['up']);
    assert.deepEqual(promqlMetricNames("count_values('by', q{a='x}y'})"), ['q']);
  });

  it('refuse a __name__ matcher rather than guess the metric', () => {
    assert.throws(() => promqlMetricNames('sum(rate({__name__=~"generation_service_.*"}[5m]))'), /__name__/);
  });

  it("read the selector of a Grafana variable's query, and nothing from one that has none", () => {
    assert.equal(grafanaVariableExpression('label_values(up{job=~"$job"}, instance)'), 'up{job=~"$job"}');
    assert.equal(grafanaVariableExpression('query_result(topk(5, x_total))'), 'topk(5, x_total)');
    assert.equal(grafanaVariableExpression('label_values(job)'), undefined);
    assert.equal(grafanaVariableExpression('label_names()'), undefined);
  });
});

describe('the dashboards and alert rules under ops/', () => {
  it('name only metrics the service exports (ours, the Temporal SDK core’s, and up)', async () => {
    const exported = await exportedSeriesNames();
    const unknown: string[] = [];
    const check = (where: string, expr: string) => {
      const names = promqlMetricNames(expr);
      assert.ok(names.length > 0, `${where} reads no metric: ${expr}`);
      for (const name of names) if (!exported.has(name)) unknown.push(`${where}: ${name}`);
    };
    for (const rule of alertRules()) check(`alert ${rule.alert}`, rule.expr);
    let expressions = 0;
    for (const { file, json } of dashboards()) {
      for (const expr of dashboardExpressions(json)) {
        check(file, expr);
        expressions++;
      }
    }
    assert.ok(expressions > 50, `only ${expressions} dashboard queries found: is the walk of the JSON right?`);
    assert.deepEqual(unknown, [], 'metrics nothing exports');
  });

  it('know the Temporal SDK’s names from the checked-in list, and ours from the catalog, with histogram series only', async () => {
    const exported = await exportedSeriesNames();
    assert.ok(exported.has('temporal_workflow_task_schedule_to_start_latency_bucket'));
    assert.ok(exported.has('generation_service_http_request_duration_seconds_bucket'));
    assert.ok(exported.has('generation_service_http_requests_total'));
    assert.ok(!exported.has('generation_service_http_request_duration_seconds'), 'a classic histogram has no series of its own name');
    assert.ok(!exported.has('temporal_sticky_cache_hit'), 'counters carry _total (countersTotalSuffix)');
  });
});
