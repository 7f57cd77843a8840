// The credential of an `Authorization: Bearer <token>` header, for API keys and the admin token
// alike. The scheme name is case-insensitive (RFC 9110 §11.1): `bearer` and `BEARER` work too.
const BEARER = /^Bearer +(\S+)$/i;

/** The token, or undefined when the header is not `Bearer <token>` (another scheme, no token, two tokens). */
export function bearerToken(header: string): string | undefined {
  return BEARER.exec(header)?.[1];
}
