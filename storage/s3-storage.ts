import { timingSafeEqual } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { DeleteObjectCommand, GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { readStream, type Storage } from './types';
import type { UrlSigner } from './url-signer';

/** S3 refuses presigned URLs that live longer than seven days. */
export const S3_MAX_URL_TTL_SECONDS = 7 * 24 * 3600;

export interface S3StorageOptions {
  bucket: string;
  region: string;
  /** An S3-compatible server (MinIO, R2, …); unset means AWS. */
  endpoint?: string;
  forcePathStyle: boolean;
  /** Unset means the AWS default credential chain (environment, profile, instance role, …). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
  /** Lifetime of signed GET URLs and the default for upload URLs (OUTPUT_URL_TTL_SECONDS). */
  urlTtlSeconds: number;
  /** The API's URL signer (GET /files/<key>), for servedGetUrl; a process without one (a worker) cannot make those. */
  apiUrlSigner?: UrlSigner;
}

const isMissing = (err: unknown) =>
  err instanceof Error && (err.name === 'NoSuchKey' || err.name === 'NotFound' || (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404);

// X-Amz-Date of a presigned URL: 20240131T235959Z.
function parseAmzDate(text: string | null): Date | undefined {
  const m = text && /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(text);
  return m ? new Date(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!)) : undefined;
}

/** An S3 bucket; uploads and downloads go straight to S3 through presigned URLs (decisions §6). */
export function createS3Storage(opts: S3StorageOptions): Storage {
  const client = new S3Client({
    region: opts.region,
    endpoint: opts.endpoint,
    forcePathStyle: opts.forcePathStyle,
    credentials: opts.credentials,
    // The SDK would otherwise compute a CRC32 of the (empty) body at presign time and sign it into
    // the upload URL, so that no real upload could match it; checksums only where S3 requires them.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const Bucket = opts.bucket;
  const presignGet = (Key: string, expiresIn: number, signingDate?: Date) => getSignedUrl(client, new GetObjectCommand({ Bucket, Key }), { expiresIn, signingDate });

  // Where this bucket's object URLs start (origin and path before the key), learnt once from the
  // SDK itself so that path-style, virtual-hosted and custom endpoints all agree with what it signs.
  let prefix: Promise<{ origin: string; path: string }> | undefined;
  const bucketPrefix = () =>
    (prefix ??= presignGet('k', 60).then((signed) => {
      const url = new URL(signed);
      return { origin: url.origin, path: url.pathname.slice(0, -'k'.length) };
    }));

  const open: Storage['open'] = async (Key) => {
    try {
      const object = await client.send(new GetObjectCommand({ Bucket, Key }));
      if (!(object.Body instanceof Readable)) throw new Error('S3 GetObject returned no readable body');
      return { stream: object.Body, size: object.ContentLength ?? 0, contentType: object.ContentType ?? 'application/octet-stream' };
    } catch (err) {
      if (isMissing(err)) return undefined;
      throw err;
    }
  };

  return {
    async put(Key, Body, ContentType) {
      await client.send(new PutObjectCommand({ Bucket, Key, Body, ContentType }));
    },
    async putFile(Key, path, ContentType) {
      const { size } = await stat(path);
      await client.send(new PutObjectCommand({ Bucket, Key, Body: createReadStream(path), ContentLength: size, ContentType }));
    },
    open,
    async delete(Key) {
      // S3 answers a delete of a missing key with success: a retried sweep is harmless.
      await client.send(new DeleteObjectCommand({ Bucket, Key }));
    },
    async read(key) {
      const file = await open(key);
      return file ? readStream(file.stream) : undefined;
    },
    async presignPut(Key, { contentType, sizeBytes, expiresInSeconds = opts.urlTtlSeconds }) {
      const expiresIn = Math.min(expiresInSeconds, S3_MAX_URL_TTL_SECONDS);
      const signingDate = new Date();
      // A presigned PUT cannot carry a maximum size, so the exact size is signed instead: S3 then
      // accepts only a body of exactly `sizeBytes` bytes and only the signed Content-Type.
      const url = await getSignedUrl(client, new PutObjectCommand({ Bucket, Key, ContentType: contentType, ContentLength: sizeBytes }), {
        expiresIn,
        signingDate,
        signableHeaders: new Set(['content-type', 'content-length']),
      });
      return { url, method: 'PUT', headers: { 'Content-Type': contentType }, expiresAt: new Date(signingDate.getTime() + expiresIn * 1000) };
    },
    signedGetUrl(key, notAfter) {
      const ttl = Math.min(opts.urlTtlSeconds, S3_MAX_URL_TTL_SECONDS);
      const untilNotAfter = notAfter ? Math.max(1, Math.ceil((notAfter.getTime() - Date.now()) / 1000)) : ttl;
      return presignGet(key, Math.min(ttl, untilNotAfter));
    },
    async servedGetUrl(key) {
      if (!opts.apiUrlSigner) throw new Error('S3 storage serves file URLs through the API only with its URL_SIGNING_SECRET signer, and none was given');
      return opts.apiUrlSigner.sign(key);
    },
    async checkSignedUrl(url) {
      const { origin, path } = await bucketPrefix();
      if (url.origin !== origin || !url.pathname.startsWith(path)) return { kind: 'foreign' };
      let key: string;
      try {
        key = decodeURIComponent(url.pathname.slice(path.length));
      } catch {
        return { kind: 'invalid' };
      }
      const signingDate = parseAmzDate(url.searchParams.get('X-Amz-Date'));
      const expiresIn = Number(url.searchParams.get('X-Amz-Expires'));
      const signature = url.searchParams.get('X-Amz-Signature') ?? '';
      if (!key || !signingDate || !Number.isInteger(expiresIn) || expiresIn < 1 || expiresIn > S3_MAX_URL_TTL_SECONDS) return { kind: 'invalid' };
      if (!/^[0-9a-f]{64}$/.test(signature) || signingDate.getTime() + expiresIn * 1000 < Date.now()) return { kind: 'invalid' };
      // Sign the same GET at the same moment again: only a URL this service signed has this signature.
      const expected = new URL(await presignGet(key, expiresIn, signingDate)).searchParams.get('X-Amz-Signature') ?? '';
      const valid = expected.length === signature.length && timingSafeEqual(Buffer.from(expected), Buffer.from(signature));
      return valid ? { kind: 'valid', key } : { kind: 'invalid' };
    },
  };
}
