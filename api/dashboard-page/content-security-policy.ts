// The dashboard's Content-Security-Policy. The app is our own scripts and styles only; it calls
// the API on this origin only; outputs it shows are signed URLs of this origin (local storage) or of
// the object store's public origin (S3), the one other origin media may be loaded from.

/** The policy, allowing media (images, video, audio, 3D downloads) from `mediaOrigins` besides our own. */
export function dashboardContentSecurityPolicy(mediaOrigins: string[] = []): string {
  const media = ["'self'", 'blob:', 'data:', ...mediaOrigins].join(' ');
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    `img-src ${media}`,
    `media-src ${media}`,
    // The 3D preview fetches its file (a glTF binary) to draw it.
    `connect-src 'self' ${mediaOrigins.join(' ')}`.trim(),
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}
