import https from 'node:https';
import { createSecureContext, rootCertificates, type SecureContext } from 'node:tls';
import { pinnedLookup, vetHost, type HostLookup } from '../../lib/pinned-address';

// One HTTP attempt of a webhook delivery (decisions §8): https only, to an address vetted after
// DNS resolution and pinned for the connection, no redirects, the whole exchange within the
// timeout, and at most 64 KiB of the answer kept. A receiver's fault is a result, never a throw.

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

/** Why a URL may not receive webhooks, or undefined when it may (checked again at every send). */
export async function vetWebhookUrl(url: string, opts: { allowPrivateAddresses: boolean; lookup?: HostLookup }): Promise<string | undefined> {
  const shape = urlShape(url);
  if (typeof shape === 'string') return shape;
  const vetted = await vetHost(shape, opts);
  return vetted.ok ? undefined : vetted.reason;
}

/** The parsed URL, or why no webhook may go to it whatever it resolves to. */
function urlShape(url: string): URL | string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'not a valid URL.';
  }
  if (parsed.protocol !== 'https:') return 'webhook URLs must use https.';
  if (parsed.username || parsed.password) return 'a webhook URL may not carry credentials; authenticate deliveries with the signature instead.';
  return parsed;
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

export async function sendWebhook(req: WebhookRequest): Promise<WebhookAttemptResult> {
  const started = performance.now();
  const failed = (error: string, statusCode: number | null = null, responseBody: string | null = null): WebhookAttemptResult => ({
    delivered: false,
    statusCode,
    latencyMs: performance.now() - started,
    error,
    responseBody,
  });
  const url = urlShape(req.url);
  if (typeof url === 'string') return failed(`refused: ${url}`);
  const vetted = await vetHost(url, req);
  if (!vetted.ok) return failed(`refused: ${vetted.reason}`);

  return new Promise<WebhookAttemptResult>((resolve) => {
    let settled = false;
    const settle = (result: WebhookAttemptResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const request = https.request(
      url,
      {
        method: 'POST',
        // No pooled socket: each attempt connects to the address vetted for it, and nothing else.
        agent: false,
        lookup: pinnedLookup(vetted.pinned),
        headers: { ...req.headers, 'Content-Length': Buffer.byteLength(req.body) },
        ...(req.extraCa && { secureContext: secureContextTrusting(req.extraCa) }),
      },
      (response) => {
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
          const body = Buffer.concat(chunks).toString('utf8');
          if (truncated) response.destroy();
          if (statusCode >= 200 && statusCode < 300) settle({ delivered: true, statusCode, latencyMs: performance.now() - started, error: null, responseBody: body });
          else if (statusCode >= 300 && statusCode < 400) settle(failed(`the receiver answered ${statusCode}; redirects are not followed`, statusCode, body));
          else settle(failed(`the receiver answered ${statusCode}`, statusCode, body));
        }
      },
    );
    const timer = setTimeout(() => {
      settle(failed(`no answer within ${req.timeoutMs} ms`));
      request.destroy();
    }, req.timeoutMs);
    request.once('error', (err: NodeJS.ErrnoException) => settle(failed(`the request failed: ${err.code ?? err.message}`)));
    request.end(req.body);
  });
}
