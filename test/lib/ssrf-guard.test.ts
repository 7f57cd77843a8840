import assert from 'node:assert/strict';
import { isPublicAddress } from '../../lib/ssrf-guard';

describe('SSRF guard', () => {
  it('accepts public unicast addresses, v4, v6 and IPv4-mapped', () => {
    for (const ip of ['8.8.8.8', '1.1.1.1', '172.32.0.1', '93.184.215.14', '2606:4700:4700::1111', '::ffff:8.8.8.8']) {
      assert.equal(isPublicAddress(ip), true, ip);
    }
  });

  it('refuses loopback, private, link-local, CGNAT, unspecified, multicast, broadcast and reserved addresses', () => {
    for (const ip of [
      '127.0.0.1',
      '127.1.2.3',
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '100.127.255.255',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '192.0.2.1',
      '240.0.0.1',
      '::1',
      '::',
      'fe80::1',
      'fc00::1',
      'fd12:3456::1',
      'ff02::1',
      '2001:db8::1',
    ]) {
      assert.equal(isPublicAddress(ip), false, ip);
    }
  });

  it('judges IPv4-mapped and IPv4-embedding IPv6 by the IPv4 address they carry, or refuses them', () => {
    for (const ip of ['::ffff:127.0.0.1', '::ffff:10.0.0.1', '::ffff:169.254.169.254', '::127.0.0.1', '64:ff9b::a00:1', '2002:a00:1::1']) {
      assert.equal(isPublicAddress(ip), false, ip);
    }
  });

  it('refuses what is not a plain IP address', () => {
    for (const text of ['localhost', 'example.com', '', '10.1', '0x7f.0.0.1', '2130706433', '8.8.8.8/32']) {
      assert.equal(isPublicAddress(text), false, text);
    }
  });
});
