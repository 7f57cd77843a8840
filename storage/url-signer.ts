import { createHmac, timingSafeEqual } from 'node:crypto';

// Signed, expiring file URLs served by the API itself (local storage, decisions §6):
//   GET /files/<key>?expires=<unix>&signature=<hex HMAC of key and expiry>
//   PUT /files/<key>?expires=<unix>&content_type=<type>&max_bytes=<n>&signature=<hex HMAC of
//       "PUT", key, expiry, type and size>
// The two messages have different numbers of lines and keys never contain a newline, so a GET
// signature can never pass as a PUT one or the other way round.

/** What a signed PUT URL allows: one body of this Content-Type, at most this many bytes. */
export interface SignedPut {
  contentType: string;
  maxBytes: number;
}

export interface UrlSigner {
  /** The lifetime of the URLs it signs unless told otherwise (OUTPUT_URL_TTL_SECONDS). */
  readonly ttlSeconds: number;
  sign(key: string, now?: Date): string;
  verify(key: string, expires: string | undefined, signature: string | undefined, now?: Date): boolean;
  signPut(key: string, put: SignedPut, opts?: { now?: Date; ttlSeconds?: number }): { url: string; expiresAt: Date };
  /** The PUT a URL's query allows, or undefined when its signature is missing, wrong or expired. */
  verifyPut(key: string, query: Record<string, unknown>, now?: Date): SignedPut | undefined;
  /** The storage key of a URL under this signer's `/files/` path on its origin; undefined for any other URL. */
  keyOf(url: URL): string | undefined;
}

const text = (value: unknown) => (typeof value === 'string' ? value : undefined);

export function createUrlSigner(opts: { secret: string; publicBaseUrl: string; ttlSeconds: number }): UrlSigner {
  const mac = (message: string) => createHmac('sha256', opts.secret).update(message).digest('hex');
  const getMessage = (key: string, expires: string) => `${key}\n${expires}`;
  const putMessage = (key: string, expires: string, put: SignedPut) => `PUT\n${key}\n${expires}\n${put.contentType}\n${put.maxBytes}`;
  const expiry = (now: Date, ttlSeconds: number) => Math.floor(now.getTime() / 1000) + ttlSeconds;
  const base = new URL(`${opts.publicBaseUrl}/files/`);

  const signatureMatches = (message: string, expires: string | undefined, signature: string | undefined, now: Date) => {
    if (!expires || !signature || !/^\d+$/.test(expires) || !/^[0-9a-f]{64}$/.test(signature)) return false;
    if (Number(expires) < now.getTime() / 1000) return false;
    return timingSafeEqual(Buffer.from(mac(message), 'hex'), Buffer.from(signature, 'hex'));
  };

  return {
    ttlSeconds: opts.ttlSeconds,
    sign(key, now = new Date()) {
      const expires = String(expiry(now, opts.ttlSeconds));
      return `${opts.publicBaseUrl}/files/${key}?expires=${expires}&signature=${mac(getMessage(key, expires))}`;
    },
    verify(key, expires, signature, now = new Date()) {
      return signatureMatches(getMessage(key, expires ?? ''), expires, signature, now);
    },
    signPut(key, put, { now = new Date(), ttlSeconds = opts.ttlSeconds } = {}) {
      const expires = String(expiry(now, ttlSeconds));
      const query = new URLSearchParams({
        expires,
        content_type: put.contentType,
        max_bytes: String(put.maxBytes),
        signature: mac(putMessage(key, expires, put)),
      });
      return { url: `${opts.publicBaseUrl}/files/${key}?${query.toString()}`, expiresAt: new Date(Number(expires) * 1000) };
    },
    verifyPut(key, query, now = new Date()) {
      const contentType = text(query.content_type);
      const maxBytes = text(query.max_bytes);
      if (!contentType || !maxBytes || !/^\d{1,15}$/.test(maxBytes)) return undefined;
      const put = { contentType, maxBytes: Number(maxBytes) };
      const expires = text(query.expires);
      return signatureMatches(putMessage(key, expires ?? '', put), expires, text(query.signature), now) ? put : undefined;
    },
    keyOf(url) {
      if (url.origin !== base.origin || !url.pathname.startsWith(base.pathname)) return undefined;
      try {
        return decodeURIComponent(url.pathname.slice(base.pathname.length)) || undefined;
      } catch {
        return undefined;
      }
    },
  };
}
