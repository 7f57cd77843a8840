import type { Readable } from 'node:stream';

export interface StoredFile {
  stream: Readable;
  size: number;
  contentType: string;
}

/** Where a client sends a file's bytes: one HTTP PUT with exactly these headers. */
export interface PresignedUpload {
  url: string;
  method: 'PUT';
  headers: Record<string, string>;
  expiresAt: Date;
}

export interface PresignPutOptions {
  contentType: string;
  sizeBytes: number;
  /** Defaults to the storage's URL lifetime (OUTPUT_URL_TTL_SECONDS). */
  expiresInSeconds?: number;
}

/**
 * What a storage makes of a URL: not one of its own (`foreign`), one of its own whose signature is
 * wrong or expired (`invalid`), or a valid signed GET of `key`.
 */
export type SignedUrlCheck = { kind: 'foreign' } | { kind: 'invalid' } | { kind: 'valid'; key: string };

/** Where output and upload files live. Keys are relative paths like `outputs/gen_x/0.png`. */
export interface Storage {
  put(key: string, data: Buffer, contentType: string): Promise<void>;
  /** Stores a file from local disk without reading it into memory (provider outputs). */
  putFile(key: string, path: string, contentType: string): Promise<void>;
  /** A readable stream of the file, or undefined when there is none. */
  open(key: string): Promise<StoredFile | undefined>;
  /** The whole file, or undefined when there is none. */
  read(key: string): Promise<Buffer | undefined>;
  /** Removes the file; removing one that is not there is not an error (the retention sweep retries). */
  delete(key: string): Promise<void>;
  /** A URL a client can PUT the file to without an API key; it accepts only the signed type and size. */
  presignPut(key: string, opts: PresignPutOptions): Promise<PresignedUpload>;
  /**
   * A signed, expiring GET URL of the file (outputs, uploads' `file_url`). `notAfter` (an output's
   * retention expiry) shortens a URL that goes straight to the bucket (S3), so that it never
   * outlives the output; the API's own URLs check the expiry themselves.
   */
  signedGetUrl(key: string, notAfter?: Date): Promise<string>;
  /**
   * A signed GET URL of the file served by the API itself (GET /files/<key>), whatever the backend:
   * an expired or deleted output's URL, which answers 410 `output_expired` where a bucket would
   * answer its own 403 or 404.
   */
  servedGetUrl(key: string): Promise<string>;
  /** Recognizes this storage's own signed GET URLs, so that inputs can be read without HTTP. */
  checkSignedUrl(url: URL): Promise<SignedUrlCheck>;
}

export async function readStream(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}
