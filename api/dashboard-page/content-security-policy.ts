// The dashboard's Content-Security-Policy. The app is our own scripts and styles only; it talks to
// this origin only; outputs it shows are signed URLs of this origin (local storage) or of the
// object store's public origin (S3), which is the one other origin media may come from.

/** The policy, allowing media (images, video, audio, 3D downloads) from `mediaOrigins` besides our own. */
export function dashboardContentSecurityPolicy(mediaOrigins: string[] = []): string {
  const media = ["'self'", 'blob:', 'data:', ...mediaOrigins].join(' ');
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    `img-src ${media}`,
    `media-src ${media}`,
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}
