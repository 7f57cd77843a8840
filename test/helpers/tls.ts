import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import type { RequestListener } from 'node:http';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

// Local https servers for the input-URL tests: a self-signed certificate made at test time with
// the openssl CLI (Node has no certificate generator), trusted only by the requests that pass it as `ca`.

export interface TestCertificate {
  key: string;
  cert: string;
}

/**
 * A self-signed ECDSA P-256 certificate (what most public receivers now serve; its handshake costs
 * a fraction of RSA-2048's) for 127.0.0.1, localhost and the given host names.
 */
export async function selfSignedCertificate(hostnames: string[] = []): Promise<TestCertificate> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'test-tls-'));
  try {
    const san = ['IP:127.0.0.1', 'DNS:localhost', ...hostnames.map((h) => `DNS:${h}`)].join(',');
    await promisify(execFile)('openssl', [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-sha256',
      '-days',
      '1',
      '-subj',
      '/CN=localhost',
      '-addext',
      `subjectAltName=${san}`,
      '-keyout',
      path.join(dir, 'key.pem'),
      '-out',
      path.join(dir, 'cert.pem'),
    ]);
    return { key: await readFile(path.join(dir, 'key.pem'), 'utf8'), cert: await readFile(path.join(dir, 'cert.pem'), 'utf8') };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** An https server on 127.0.0.1 and a free port; `close` ends it and its open connections. */
export async function startHttpsServer(certificate: TestCertificate, handler: RequestListener): Promise<{ port: number; connections(): number; close(): Promise<void> }> {
  const server = https.createServer(certificate, handler);
  let connections = 0;
  server.on('secureConnection', () => (connections += 1));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : 0,
    /** TLS connections accepted so far. */
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
