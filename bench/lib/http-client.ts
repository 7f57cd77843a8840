import http from 'node:http';

// A lean keep-alive JSON client for load generation: the load generator shares the machine's
// cores with the service, so it should cost as little CPU per request as it can.

const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

export function postJson(url: string, headers: Record<string, string>, body: unknown): Promise<{ status: number; body: string }> {
  const payload = Buffer.from(JSON.stringify(body));
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { method: 'POST', agent, headers: { ...headers, 'Content-Type': 'application/json', 'Content-Length': payload.length } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}
