// Reads Prometheus's text exposition format (what GET /metrics answers) into samples, so tests can
// compare counters before and after a scripted run. Comments (# HELP, # TYPE) are skipped; label
// values are unescaped (\\, \", \n).

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+\d+)?$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"\s*,?\s*/g;

export function parsePrometheusText(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    const match = SAMPLE.exec(trimmed);
    if (!match) throw new Error(`not a Prometheus sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, key, raw] of (match[2] ?? '').matchAll(LABEL)) {
      labels[key!] = raw!.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
    }
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return samples;
}

export async function scrape(url: string): Promise<Sample[]> {
  const response = await fetch(url);
  if (response.status !== 200) throw new Error(`GET ${url} answered ${response.status}`);
  return parsePrometheusText(await response.text());
}

/**
 * The change of metric `name` between two scrapes, summed by the labels `by` (every label when
 * omitted), keyed `a=1,b=2`; keys whose change is 0 are left out.
 */
export function deltaBy(before: Sample[], after: Sample[], name: string, by?: string[]): Record<string, number> {
  const sum = (samples: Sample[]) => {
    const totals = new Map<string, number>();
    for (const s of samples) {
      if (s.name !== name) continue;
      const keys = by ?? Object.keys(s.labels).sort();
      const key = keys.map((k) => `${k}=${s.labels[k] ?? ''}`).join(',');
      totals.set(key, (totals.get(key) ?? 0) + s.value);
    }
    return totals;
  };
  const [was, now] = [sum(before), sum(after)];
  const delta: Record<string, number> = {};
  for (const key of new Set([...was.keys(), ...now.keys()])) {
    const change = (now.get(key) ?? 0) - (was.get(key) ?? 0);
    if (change !== 0) delta[key] = change;
  }
  return delta;
}
