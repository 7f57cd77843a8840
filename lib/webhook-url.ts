import { vetHost, type HostLookup } from './pinned-address';

// Whether a URL may receive webhooks (decisions §8): its shape (https, or plain http where private
// addresses are allowed; no credentials in it) and where it resolves to (lib/ssrf-guard.ts through
// lib/pinned-address.ts). The API vets a subscription's URL with it when one is created, and every
// attempt of a delivery (activities/webhooks/send-webhook.ts) vets it again before sending, with the
// same words for the same refusal.

/** Why a URL may not receive webhooks, or undefined when it may (checked again at every send). */
export async function vetWebhookUrl(url: string, opts: { allowPrivateAddresses: boolean; lookup?: HostLookup }): Promise<string | undefined> {
  const shape = webhookUrlShape(url, opts.allowPrivateAddresses);
  if (typeof shape === 'string') return shape;
  const vetted = await vetHost(shape, opts);
  return vetted.ok ? undefined : vetted.reason;
}

/**
 * The parsed URL, or why no webhook may go to it whatever it resolves to. Plain http goes with
 * private addresses: the setting that lets a developer's machine receive lets it receive without TLS.
 */
export function webhookUrlShape(url: string, allowHttp: boolean): URL | string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'not a valid URL.';
  }
  if (parsed.protocol !== 'https:' && !(allowHttp && parsed.protocol === 'http:')) return 'webhook URLs must use https.';
  if (parsed.username || parsed.password) return 'a webhook URL may not carry credentials; authenticate deliveries with the signature instead.';
  return parsed;
}
