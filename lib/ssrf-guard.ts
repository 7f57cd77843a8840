import ipaddr from 'ipaddr.js';

// Which addresses the service may fetch a caller's URL from: only public unicast ones, so that an
// input URL can never reach loopback, the private network, cloud metadata (169.254.169.254) or
// anything else behind the service. An allowlist of ipaddr.js's classification, not a list of
// forbidden ranges, so a range nobody thought of is refused rather than allowed.

// 2000::/3 is all of the globally routed IPv6 unicast space; other "unicast" IPv6 (::/8, including
// the old IPv4-compatible ::a.b.c.d form) is not reachable on the Internet.
const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR('2000::/3');

/**
 * True when `ip` is a public unicast address. IPv4-mapped IPv6 (::ffff:127.0.0.1) is judged as the
 * IPv4 address it carries; text that is not an IP address is never public.
 */
export function isPublicAddress(ip: string): boolean {
  if (!ipaddr.isValid(ip)) return false;
  // process() turns ::ffff:a.b.c.d into a.b.c.d, so the mapped form cannot hide a private address.
  const address = ipaddr.process(ip);
  if (address.range() !== 'unicast') return false;
  if (address.kind() === 'ipv6') return address.match(GLOBAL_UNICAST_V6);
  // ipaddr.js accepts legacy IPv4 forms ("10.1", "0x0a.0.0.1"); only four-part decimal is taken at
  // face value, everything else is refused rather than guessed at.
  return ipaddr.IPv4.isValidFourPartDecimal(ip) || ipaddr.IPv6.isValid(ip);
}
