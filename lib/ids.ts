import { randomBytes } from 'node:crypto';

// Type-prefixed identifiers (decisions §5): the prefix tells a reader what an id names.
export type IdPrefix = 'gen' | 'cmp' | 'out' | 'whk' | 'evt' | 'dlv' | 'key' | 'upl' | 'org' | 'usr' | 'req' | 'led' | 'inp' | 'whr';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Base62 text of `bytes` random bytes; rejection sampling keeps every character uniform. */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248) out += ALPHABET[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

export function newId(prefix: IdPrefix): string {
  return `${prefix}_${randomBase62(24)}`;
}
