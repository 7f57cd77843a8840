import { ConfigError, requireSetting, type Config } from '../config';
import { createLocalStorage } from './local-storage';
import type { Storage } from './types';
import { createUrlSigner, type UrlSigner } from './url-signer';

export type StorageConfig = Pick<
  Config,
  | 'storage'
  | 'localStorageDir'
  | 'urlSigningSecret'
  | 'publicBaseUrl'
  | 'outputUrlTtlSeconds'
  | 's3Bucket'
  | 's3Region'
  | 's3Endpoint'
  | 's3ForcePathStyle'
  | 's3AccessKeyId'
  | 's3SecretAccessKey'
>;

/**
 * The storage STORAGE names. Local storage signs its URLs with `urlSigner` (the API passes the one
 * its file routes verify with); without one it builds its own from URL_SIGNING_SECRET, or, when
 * that is unset too (a worker only writes files), it cannot sign. S3 storage presigns its own URLs
 * and uses the signer only for the API-served URL of an expired output.
 */
export function createStorage(config: StorageConfig, urlSigner?: UrlSigner): Storage {
  const signer =
    urlSigner ??
    (config.urlSigningSecret ? createUrlSigner({ secret: config.urlSigningSecret, publicBaseUrl: config.publicBaseUrl, ttlSeconds: config.outputUrlTtlSeconds }) : undefined);
  if (config.storage === 's3') {
    // Required here, not imported: the AWS SDK costs tens of MB that local storage never needs.
    const { createS3Storage, S3_MAX_URL_TTL_SECONDS } = require('./s3-storage') as typeof import('./s3-storage');
    const bucket = requireSetting(config.s3Bucket, 'S3_BUCKET', 'STORAGE=s3 keeps every output and upload in that bucket');
    if (config.outputUrlTtlSeconds > S3_MAX_URL_TTL_SECONDS) {
      throw new ConfigError(`OUTPUT_URL_TTL_SECONDS must be at most ${S3_MAX_URL_TTL_SECONDS} (7 days) with STORAGE=s3: S3 refuses longer presigned URLs`);
    }
    return createS3Storage({
      bucket,
      region: config.s3Region,
      endpoint: config.s3Endpoint,
      forcePathStyle: config.s3ForcePathStyle,
      credentials: config.s3AccessKeyId && config.s3SecretAccessKey ? { accessKeyId: config.s3AccessKeyId, secretAccessKey: config.s3SecretAccessKey } : undefined,
      urlTtlSeconds: config.outputUrlTtlSeconds,
      // An expired output's URL is the API's own, which answers 410 (storage/types.ts servedGetUrl).
      ...(signer && { apiUrlSigner: signer }),
    });
  }
  return createLocalStorage(config.localStorageDir, signer);
}
