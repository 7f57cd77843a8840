import type { StorageConfig } from '.';

// Where a browser fetches outputs from, for the dashboard's Content-Security-Policy: signed URLs of
// PUBLIC_BASE_URL with local storage, presigned URLs of the bucket's endpoint with S3.

const originOf = (url: string) => new URL(url).origin;

/** The origins output URLs point at, besides the page's own; wildcards for S3's per-bucket hosts. */
export function mediaOriginsOf(config: Pick<StorageConfig, 'storage' | 'publicBaseUrl' | 's3Endpoint' | 's3ForcePathStyle'>): string[] {
  if (config.storage === 'local') return [originOf(config.publicBaseUrl)];
  if (!config.s3Endpoint) return ['https://*.amazonaws.com'];
  const endpoint = new URL(config.s3Endpoint);
  // Virtual-hosted style puts the bucket in the host name (bucket.endpoint).
  return config.s3ForcePathStyle ? [endpoint.origin] : [endpoint.origin, `${endpoint.protocol}//*.${endpoint.host}`];
}
