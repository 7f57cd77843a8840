import dns from 'node:dns/promises';
import { isIP, type LookupFunction } from 'node:net';
import { isPublicAddress } from './ssrf-guard';

// Resolving a caller's host once, vetting every address it resolves to, and connecting only to the
// vetted one: the guard input fetching and webhook delivery share. Pinning closes the window in
// which a second DNS answer (a rebinding attack) could send the connection somewhere private.

export type HostLookup = (hostname: string) => Promise<{ address: string; family: number }[]>;

export const systemLookup: HostLookup = (hostname) => dns.lookup(hostname, { all: true, verbatim: true });

export type VettedAddress = { address: string; family: number };

/**
 * The address to connect to for `url`'s host, or the reason it is refused: unresolvable, or (unless
 * `allowPrivateAddresses`) any of its addresses not public (lib/ssrf-guard.ts).
 */
export async function vetHost(
  url: URL,
  opts: { allowPrivateAddresses: boolean; lookup?: HostLookup; isAllowedAddress?: (ip: string) => boolean },
): Promise<{ ok: true; pinned: VettedAddress } | { ok: false; reason: string; unresolved?: true }> {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: VettedAddress[];
  if (isIP(host)) {
    addresses = [{ address: host, family: isIP(host) }];
  } else {
    addresses = await (opts.lookup ?? systemLookup)(host).catch(() => []);
    if (addresses.length === 0) return { ok: false, reason: `the host ${host} could not be resolved.`, unresolved: true };
  }
  if (!opts.allowPrivateAddresses) {
    const allowed = opts.isAllowedAddress ?? isPublicAddress;
    const refused = addresses.find((a) => !allowed(a.address));
    if (refused) return { ok: false, reason: `the host ${host} resolves to a private or reserved address (${refused.address}); only public addresses are allowed.` };
  }
  return { ok: true, pinned: addresses[0]! };
}

/** A `lookup` for http(s).request that answers only the vetted address. */
export function pinnedLookup(pinned: VettedAddress): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) callback(null, [pinned]);
    else callback(null, pinned.address, pinned.family);
  };
}
