import assert from 'node:assert/strict';
import { clientIp, formatIpRange, ipInRanges, parseIpRange, type IpRange } from '../../lib/ip-ranges';

const ranges = (...texts: string[]) => texts.map((t) => parseIpRange(t, { allowBareAddress: true }) as IpRange);

describe('IP ranges', () => {
  it('parses IPv4 and IPv6 CIDRs and normalizes them to their network address', () => {
    assert.equal(formatIpRange(parseIpRange('10.1.2.3/8')!), '10.0.0.0/8');
    assert.equal(formatIpRange(parseIpRange('2001:db8:0:0::1/32')!), '2001:db8::/32');
    assert.equal(formatIpRange(parseIpRange('0.0.0.0/0')!), '0.0.0.0/0');
  });

  it('rejects what is not a strict CIDR range', () => {
    for (const bad of ['10.0.0.0', '10.0.0.0/33', '2001:db8::/129', '10.1/8', '0x0a.0.0.1/8', 'localhost/8', '10.0.0.0/-1', '']) {
      assert.equal(parseIpRange(bad), undefined, bad);
    }
  });

  it('matches /32, /128 and /0 at their edges', () => {
    assert.ok(ipInRanges('203.0.113.7', ranges('203.0.113.7/32')));
    assert.ok(!ipInRanges('203.0.113.8', ranges('203.0.113.7/32')));
    assert.ok(ipInRanges('2001:db8::1', ranges('2001:db8::1/128')));
    assert.ok(!ipInRanges('2001:db8::2', ranges('2001:db8::1/128')));
    assert.ok(ipInRanges('198.51.100.1', ranges('0.0.0.0/0')));
    assert.ok(!ipInRanges('2001:db8::1', ranges('0.0.0.0/0')), 'an IPv4 /0 does not admit IPv6');
    assert.ok(ipInRanges('2001:db8::1', ranges('::/0')));
  });

  it('treats an IPv4-mapped IPv6 address as its IPv4 address', () => {
    assert.ok(ipInRanges('::ffff:10.1.2.3', ranges('10.0.0.0/8')));
    assert.ok(!ipInRanges('::ffff:11.1.2.3', ranges('10.0.0.0/8')));
  });

  it('never matches garbage', () => {
    assert.ok(!ipInRanges('not-an-ip', ranges('0.0.0.0/0')));
  });

  it('ignores X-Forwarded-For unless the socket is a trusted proxy', () => {
    assert.equal(clientIp('198.51.100.9', '10.0.0.1', []), '198.51.100.9');
    assert.equal(clientIp('198.51.100.9', '10.0.0.1', ranges('127.0.0.1')), '198.51.100.9');
  });

  it('takes the nearest untrusted hop behind trusted proxies, so a client cannot spoof its address', () => {
    const proxies = ranges('127.0.0.1', '172.16.0.0/12');
    // The client wrote "10.0.0.1" itself; the proxies appended what they saw.
    assert.equal(clientIp('127.0.0.1', '10.0.0.1, 203.0.113.5, 172.16.0.2', proxies), '203.0.113.5');
    assert.equal(clientIp('::ffff:127.0.0.1', '203.0.113.5', proxies), '203.0.113.5');
    // Every hop trusted: the left-most one.
    assert.equal(clientIp('127.0.0.1', '172.16.0.3, 172.16.0.2', proxies), '172.16.0.3');
    // A malformed hop ends the walk at the last trusted address (fails closed).
    assert.equal(clientIp('127.0.0.1', '203.0.113.5, junk', proxies), '127.0.0.1');
  });
});
