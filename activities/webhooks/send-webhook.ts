import http from 'node:http';
import https from 'node:https';
import { createSecureContext, rootCertificates, type SecureContext } from 'node:tls';
import { pinnedLookup, vetHost, type HostLookup, type VettedAddress } from '../../lib/pinned-address';
import { webhookUrlShape } from '../../lib/webhook-url';
import { responsePreview } from './response-preview';

// One HTTP attempt of a webhook delivery (decisions §8): https only (plain http too where
// ALLOW_PRIVATE_WEBHOOK_URLS allows private addresses: a developer's local receiver), to an address
// vetted after DNS resolution (lib/webhook-url.ts) and pinned for the connection, no redirects, the
// whole exchange within the timeout, and at most 64 KiB of the answer kept (as a preview any text
// column takes, response-preview.ts). A receiver's fault is a result, never a throw.

export const MAX_RESPONSE_BODY_BYTES = 64 * 1024;

export interface WebhookAttemptResult {
  delivered: boolean;
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  responseBody: string | null;
}

export interface WebhookRequest {
  url: string;
  body: string;
  headers: Record<string, string>;
  timeoutMs: number;
  allowPrivateAddresses: boolean;
  lookup?: HostLookup;
  /** Extra certificate authorities to trust besides the system's (WEBHOOK_CA_CERTS). */
  extraCa?: string;
}

// Building a context from the system roots costs ~30 ms of CPU: once per extra CA, not per attempt.
const contexts = new Map<string, SecureContext>();
function secureContextTrusting(extraCa: string): SecureContext {
  let context = contexts.get(extraCa);
  if (!context) {
    context = createSecureContext({ ca: [...rootCertificates, extraCa] });
    contexts.set(extraCa, context);
  }
  return context;
}

/**
 * Connections kept open per receiver and vetted address, as a browser or Stripe's sender keeps them:
 * a receiver's next delivery skips the TCP and TLS handshakes (on both sides). A pool only ever
 * holds sockets connected to the one address it is named after, so a reused connection still goes
 * nowhere but where this attempt's vetting allowed. Idle sockets close after IDLE_SOCKET_MS, below
 * the 5 s idle timeout common servers (Node's among them) apply, and the least recently used pools
 * close beyond MAX_POOLS.
 */
const IDLE_SOCKET_MS = 4_000;
const MAX_POOLS = 256;
const pools = new Map<string, http.Agent>();
function poolFor(key: string, secure: boolean): http.Agent {
  let agent = pools.get(key);
  if (agent) {
    pools.delete(key);
  } else {
    const options: http.AgentOptions = { keepAlive: true, timeout: IDLE_SOCKET_MS, maxFreeSockets: 16, scheduling: 'lifo' };
    agent = secure ? new https.Agent(options) : new http.Agent(options);
    if (pools.size >= MAX_POOLS) {
      const [oldestKey, oldest] = pools.entries().next().value as [string, http.Agent];
      pools.delete(oldestKey);
      oldest.destroy();
    }
  }
  pools.set(key, agent);
  return agent;
}

export async function sendWebhook(req: WebhookRequest): Promise<WebhookAttemptResult> {
  const started = performance.now();
  const url = webhookUrlShape(req.url, req.allowPrivateAddresses);
  if (typeof url === 'string') return failure(started, `refused: ${url}`);
  const vetted = await vetHost(url, req);
  if (!vetted.ok) return failure(started, `refused: ${vetted.reason}`);
  const secure = url.protocol === 'https:';
  const agent = poolFor(`${url.protocol}|${url.host}|${vetted.pinned.address}|${req.extraCa ?? ''}`, secure);
  const first = await post(req, url, vetted.pinned, agent, started);
  // A kept-alive socket the receiver closed just as it was reused fails before any answer; Node's
  // documentation retries such a request once on a new connection, and so do we.
  if (first === STALE_SOCKET) return (await post(req, url, vetted.pinned, false, started)) as WebhookAttemptResult;
  return first;
}

const STALE_SOCKET = Symbol('stale socket');

function failure(started: number, error: string, statusCode: number | null = null, responseBody: string | null = null): WebhookAttemptResult {
  return { delivered: false, statusCode, latencyMs: performance.now() - started, error, responseBody };
}

function post(req: WebhookRequest, url: URL, pinned: VettedAddress, agent: http.Agent | false, started: number): Promise<WebhookAttemptResult | typeof STALE_SOCKET> {
  const failed = (error: string, statusCode: number | null = null, responseBody: string | null = null) => failure(started, error, statusCode, responseBody);
  return new Promise((resolve) => {
    let settled = false;
    let answered = false;
    const settle = (result: WebhookAttemptResult | typeof STALE_SOCKET) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const secure = url.protocol === 'https:';
    const request = (secure ? https : http).request(
      url,
      {
        method: 'POST',
        agent,
        lookup: pinnedLookup(pinned),
        headers: { ...req.headers, 'Content-Length': Buffer.byteLength(req.body) },
        ...(secure && req.extraCa && { secureContext: secureContextTrusting(req.extraCa) }),
      },
      (response) => {
        answered = true;
        const statusCode = response.statusCode ?? 0;
        const chunks: Buffer[] = [];
        let kept = 0;
        response.on('data', (chunk: Buffer) => {
          if (kept >= MAX_RESPONSE_BODY_BYTES) return;
          const part = chunk.subarray(0, MAX_RESPONSE_BODY_BYTES - kept);
          chunks.push(part);
          kept += part.length;
          // Enough for the log: the rest is not read.
          if (kept >= MAX_RESPONSE_BODY_BYTES) finish(true);
        });
        response.once('end', () => finish(false));
        response.once('error', () => finish(false));
        function finish(truncated: boolean): void {
          const body = responsePreview(Buffer.concat(chunks));
          if (truncated) response.destroy();
          if (statusCode >= 200 && statusCode < 300) settle({ delivered: true, statusCode, latencyMs: performance.now() - started, error: null, responseBody: body });
          else if (statusCode >= 300 && statusCode < 400) settle(failed(`the receiver answered ${statusCode}; redirects are not followed`, statusCode, body));
          else settle(failed(`the receiver answered ${statusCode}`, statusCode, body));
        }
      },
    );
    const elapsed = performance.now() - started;
    const timer = setTimeout(
      () => {
        settle(failed(`no answer within ${req.timeoutMs} ms`));
        request.destroy();
      },
      Math.max(0, req.timeoutMs - elapsed),
    );
    request.once('error', (err: NodeJS.ErrnoException) => {
      if (request.reusedSocket && !answered && err.code === 'ECONNRESET') settle(STALE_SOCKET);
      else settle(failed(`the request failed: ${err.code ?? err.message}`));
    });
    request.end(req.body);
  });
}
