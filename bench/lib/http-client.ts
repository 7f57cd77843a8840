import http from 'node:http';

// A lean keep-alive JSON client for load generation: the load generator shares the machine's
// cores with the service, so it should cost as little CPU per request as it can.

const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

/** Thrown when an answer takes longer than the caller's `timeoutMs`; the request is abandoned. */
export class RequestTimeoutError extends Error {}

export function requestJson(
  method: string,
  url: string,
  headers: Record<string, string>,
  body?: unknown,
  opts: { timeoutMs?: number } = {},
): Promise<{ status: number; body: string }> {
  const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
  const sent = payload ? { ...headers, 'Content-Type': 'application/json', 'Content-Length': String(payload.length) } : headers;
  return new Promise((resolve, reject) => {
    let timedOut = false;
    const fail = (err: Error) => {
      clearTimeout(timer);
      reject(timedOut ? new RequestTimeoutError(`${method} ${url} had no answer after ${opts.timeoutMs} ms`) : err);
    };
    const req = http.request(url, { method, agent, headers: sent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        clearTimeout(timer);
        resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() });
      });
      res.on('error', fail);
    });
    // A whole-request deadline (http's own `timeout` only notices an idle socket).
    const timer =
      opts.timeoutMs === undefined
        ? undefined
        : setTimeout(() => {
            timedOut = true;
            req.destroy();
          }, opts.timeoutMs);
    req.on('error', fail);
    req.end(payload);
  });
}

export const postJson = (url: string, headers: Record<string, string>, body: unknown) => requestJson('POST', url, headers, body);
export const getJson = (url: string, headers: Record<string, string>) => requestJson('GET', url, headers);
