// What a receiver answered, as text a Postgres `text` column always takes and the dashboard shows
// as it came: valid UTF-8 as it is, and each byte Postgres could not store (U+0000) or that is not
// UTF-8 (a binary error page, a multi-byte character cut at the 64 KiB cap) as `\xNN`. Decoding it
// with U+FFFD instead would hide what was sent; storing it raw fails the insert (SQLSTATE 22021)
// after the POST went out, which is how a receiver's reply once caused resends.

const strict = new TextDecoder('utf-8', { fatal: true });

export function responsePreview(body: Buffer): string {
  try {
    const text = strict.decode(body);
    if (!text.includes('\u0000')) return text;
  } catch {
    // Not UTF-8 throughout: escaped byte by byte below.
  }
  let out = '';
  let i = 0;
  while (i < body.length) {
    const length = utf8SequenceLength(body, i);
    if (length === 0 || body[i] === 0) {
      out += `\\x${body[i]!.toString(16).padStart(2, '0')}`;
      i += 1;
    } else {
      out += body.toString('utf8', i, i + length);
      i += length;
    }
  }
  return out;
}

/** The length of the well-formed UTF-8 sequence starting at `i` (RFC 3629), or 0 if there is none. */
function utf8SequenceLength(bytes: Buffer, i: number): number {
  const lead = bytes[i]!;
  if (lead < 0x80) return 1;
  const inRange = (k: number, lo = 0x80, hi = 0xbf) => i + k < bytes.length && bytes[i + k]! >= lo && bytes[i + k]! <= hi;
  if (lead >= 0xc2 && lead <= 0xdf) return inRange(1) ? 2 : 0;
  if (lead >= 0xe0 && lead <= 0xef) {
    // E0 excludes overlong forms; ED excludes the UTF-16 surrogates.
    const second = lead === 0xe0 ? inRange(1, 0xa0) : lead === 0xed ? inRange(1, 0x80, 0x9f) : inRange(1);
    return second && inRange(2) ? 3 : 0;
  }
  if (lead >= 0xf0 && lead <= 0xf4) {
    // F0 excludes overlong forms; F4 stops at U+10FFFF.
    const second = lead === 0xf0 ? inRange(1, 0x90) : lead === 0xf4 ? inRange(1, 0x80, 0x8f) : inRange(1);
    return second && inRange(2) && inRange(3) ? 4 : 0;
  }
  return 0;
}
