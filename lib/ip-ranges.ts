import ipaddr from 'ipaddr.js';

// IP ranges for key allowlists and TRUST_PROXY, on ipaddr.js rather than hand-written parsing.

type Address = ipaddr.IPv4 | ipaddr.IPv6;
export type IpRange = [Address, number];

function isStrictCidr(text: string): boolean {
  // Four-part decimal for IPv4: ipaddr.js alone also accepts legacy forms like "10.1/8".
  return ipaddr.IPv4.isValidCIDRFourPartDecimal(text) || ipaddr.IPv6.isValidCIDR(text);
}

/**
 * Parses a CIDR range ("203.0.113.0/24", "2001:db8::/32"); with `allowBareAddress`, a single
 * address counts as /32 or /128. Returns undefined when the text is not one.
 */
export function parseIpRange(text: string, opts: { allowBareAddress?: boolean } = {}): IpRange | undefined {
  if (isStrictCidr(text)) return ipaddr.parseCIDR(text);
  if (opts.allowBareAddress && (ipaddr.IPv4.isValidFourPartDecimal(text) || ipaddr.IPv6.isValid(text))) {
    const address = ipaddr.parse(text);
    return [address, address.kind() === 'ipv4' ? 32 : 128];
  }
  return undefined;
}

/** The canonical text of a range: its network address and prefix length. */
export function formatIpRange([address, bits]: IpRange): string {
  const network =
    address.kind() === 'ipv4' ? ipaddr.IPv4.networkAddressFromCIDR(`${address.toString()}/${bits}`) : ipaddr.IPv6.networkAddressFromCIDR(`${address.toString()}/${bits}`);
  return `${network.toString()}/${bits}`;
}

/** An IPv4-mapped IPv6 address (::ffff:10.0.0.1) is treated as the IPv4 address it carries. */
function normalize(ip: string): Address | undefined {
  return ipaddr.isValid(ip) ? ipaddr.process(ip) : undefined;
}

export function ipInRanges(ip: string, ranges: readonly IpRange[]): boolean {
  const address = normalize(ip);
  if (!address) return false;
  return ranges.some(([range, bits]) => range.kind() === address.kind() && address.match(range, bits));
}

/**
 * The client's address: the socket's, unless the socket is a trusted proxy; then the
 * X-Forwarded-For hops are walked from the nearest, and the first untrusted one is the client.
 * A malformed hop stops the walk at the last trusted address, which fails closed.
 */
export function clientIp(socketAddress: string, forwardedFor: string | undefined, trusted: readonly IpRange[]): string {
  const socket = normalize(socketAddress)?.toString() ?? socketAddress;
  if (trusted.length === 0 || !forwardedFor || !ipInRanges(socket, trusted)) return socket;
  let client = socket;
  const hops = forwardedFor
    .split(',')
    .map((hop) => hop.trim())
    .filter(Boolean);
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = normalize(hops[i]!);
    if (!hop) break;
    client = hop.toString();
    if (!ipInRanges(client, trusted)) break;
  }
  return client;
}
