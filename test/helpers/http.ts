import { stack } from './stack';

export interface HttpResult<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

/** A JSON request to the test API (or `baseUrl`), with an optional bearer key. */
export async function call<T = any>(
  method: string,
  path: string,
  opts: { key?: string; body?: unknown; rawBody?: string; headers?: Record<string, string>; baseUrl?: string } = {},
): Promise<HttpResult<T>> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.key) headers.Authorization = `Bearer ${opts.key}`;
  let body: string | undefined = opts.rawBody;
  if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers['Content-Type'] ??= 'application/json';
  }
  const response = await fetch(`${opts.baseUrl ?? stack().apiUrl}${path}`, { method, headers, body });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON: keep the text
  }
  return { status: response.status, headers: response.headers, body: parsed as T };
}

export interface TestOrganization {
  id: string;
  liveKey: string;
  testKey: string;
}

/** A fresh organization through the operator API, as a real operator would make one. */
export async function createOrganization(opts: { plan?: string; credits?: number; enterprise?: boolean } = {}): Promise<TestOrganization> {
  const res = await call('POST', '/admin/v1/organizations', {
    key: stack().adminToken,
    body: {
      name: `Test org ${Math.random().toString(36).slice(2, 8)}`,
      plan: opts.plan ?? 'pro',
      credits: opts.credits ?? 100_000,
      ...(opts.enterprise !== undefined && { enterprise: opts.enterprise }),
    },
  });
  if (res.status !== 201) throw new Error(`createOrganization: ${res.status} ${JSON.stringify(res.body)}`);
  const keyOf = (env: string) => res.body.api_keys.find((k: { environment: string }) => k.environment === env).secret as string;
  return { id: res.body.id, liveKey: keyOf('live'), testKey: keyOf('test') };
}

/** Polls until `check` returns a value, or fails after `timeoutMs`. */
export async function waitFor<T>(check: () => Promise<T | undefined | false>, timeoutMs = 20_000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export async function waitForGeneration(id: string, key: string, statuses = ['succeeded', 'failed', 'canceled'], timeoutMs = 30_000) {
  return waitFor(
    async () => {
      const res = await call('GET', `/v1/generations/${id}`, { key });
      return statuses.includes(res.body?.status) ? res.body : undefined;
    },
    timeoutMs,
    `generation ${id} to reach ${statuses.join('|')}`,
  );
}
