import { createHmac, timingSafeEqual } from 'node:crypto';

// Signed, expiring file URLs: /files/<key>?expires=<unix>&signature=<hex HMAC of key and expiry>.

export interface UrlSigner {
  sign(key: string, now?: Date): string;
  verify(key: string, expires: string | undefined, signature: string | undefined, now?: Date): boolean;
}

export function createUrlSigner(opts: { secret: string; publicBaseUrl: string; ttlSeconds: number }): UrlSigner {
  const mac = (key: string, expires: string) =>
    createHmac('sha256', opts.secret).update(`${key}\n${expires}`).digest('hex');
  return {
    sign(key, now = new Date()) {
      const expires = String(Math.floor(now.getTime() / 1000) + opts.ttlSeconds);
      return `${opts.publicBaseUrl}/files/${key}?expires=${expires}&signature=${mac(key, expires)}`;
    },
    verify(key, expires, signature, now = new Date()) {
      if (!expires || !signature || !/^\d+$/.test(expires) || !/^[0-9a-f]{64}$/.test(signature)) return false;
      if (Number(expires) < now.getTime() / 1000) return false;
      return timingSafeEqual(Buffer.from(mac(key, expires), 'hex'), Buffer.from(signature, 'hex'));
    },
  };
}
