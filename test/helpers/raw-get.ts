import { request } from 'node:http';
import { stack } from './stack';

/**
 * A GET to the test API with the path and headers sent exactly as written: fetch would resolve `..`
 * before sending it, and adds `Cache-Control: no-cache` to a conditional request, which forbids a 304.
 */
export function rawGet(pathAsSent: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  const { hostname, port } = new URL(stack().apiUrl);
  return new Promise((resolve, reject) => {
    const req = request({ hostname, port, path: pathAsSent, method: 'GET', headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.once('error', reject);
    req.end();
  });
}
