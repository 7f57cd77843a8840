// The metric names a PromQL expression reads, so that test/ops/ can hold every query of the
// dashboards and alert rules under ops/ to the metrics the service exports. A tokenizer, not a
// parser: it removes what cannot be a metric name (strings, label matchers, ranges, grouping label
// lists, offsets, numbers, Grafana's variables) and keeps the identifiers that are neither a
// keyword nor followed by `(` (a function or an aggregation). A `__name__` matcher is refused
// rather than guessed at: write the metric's name.

const KEYWORDS = new Set(['and', 'or', 'unless', 'by', 'without', 'on', 'ignoring', 'group_left', 'group_right', 'offset', 'bool', 'inf', 'nan', 'atan2']);

export function promqlMetricNames(expression: string): string[] {
  let rest = expression
    // String literals (label values, label_replace's arguments), whatever they hold.
    .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`[^`]*`/g, '""')
    // Grafana's variables: $name, ${name}, ${name:format}, [[name]].
    .replace(/\$\{[^}]*\}|\$\w+|\[\[\w+\]\]/g, ' ');
  for (const matchers of rest.match(/\{[^{}]*\}/g) ?? []) {
    if (/\b__name__\b/.test(matchers)) throw new Error(`a __name__ matcher in "${expression}": name the metric instead`);
  }
  rest = rest
    .replace(/\{[^{}]*\}/g, ' ') // label matchers
    .replace(/\[[^\]]*\]/g, ' ') // ranges and subqueries
    .replace(/\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ') // grouping label lists
    .replace(/\boffset\s+-?[0-9a-z]+/gi, ' ') // offsets
    .replace(/@\s*(?:(?:start|end)\s*\(\s*\)|[\d.]+)/g, ' ') // @ modifiers
    .replace(/(?<![\w:.])(?:0x[0-9a-f]+|\d*\.?\d+(?:e[+-]?\d+)?)(?![\w:])/gi, ' '); // numbers
  const names = new Set<string>();
  for (const match of rest.matchAll(/[A-Za-z_:][\w:]*/g)) {
    const name = match[0];
    const after = rest.slice(match.index + name.length).trimStart();
    if (after.startsWith('(') || KEYWORDS.has(name.toLowerCase())) continue;
    names.add(name);
  }
  return [...names];
}

/**
 * The PromQL inside a Grafana variable's query: `label_values(<selector>, label)` and
 * `query_result(<expr>)` hold one; `label_values(label)`, `label_names()` and `metrics(...)` none.
 */
export function grafanaVariableExpression(query: string): string | undefined {
  const labelValues = /^\s*label_values\(\s*(.*),\s*\w+\s*\)\s*$/s.exec(query);
  if (labelValues) return labelValues[1];
  const queryResult = /^\s*query_result\(\s*(.*)\)\s*$/s.exec(query);
  return queryResult?.[1];
}
