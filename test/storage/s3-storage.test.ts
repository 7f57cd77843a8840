import assert from 'node:assert/strict';
import { resolveInputUrl } from '../../api/admission/fetch-input';
import { ConfigError, loadConfig } from '../../config';
import { createStorage } from '../../storage';
import { createS3Storage } from '../../storage/s3-storage';
import type { Storage } from '../../storage/types';
import { waitFor } from '../helpers/http';
import { S3RVER_CREDENTIALS, startS3rver } from '../helpers/s3';

// Against s3rver, an S3-compatible server started in this process. s3rver checks a presigned
// URL's expiry and access key id but not its SigV4 signature, so it cannot show that a wrong
// Content-Type or size is refused; these tests check instead that both are signed into the URL,
// which is what makes real S3 refuse them (403 SignatureDoesNotMatch).

const BUCKET = 'test-bucket';

describe('S3 storage', () => {
  let s3: { endpoint: string; close(): Promise<void> };
  let storage: Storage;
  const make = (urlTtlSeconds = 600) =>
    createS3Storage({ bucket: BUCKET, region: 'us-east-1', endpoint: s3.endpoint, forcePathStyle: true, credentials: S3RVER_CREDENTIALS, urlTtlSeconds });
  const key = (name: string) => `uploads/org_s3/${Date.now()}-${Math.random().toString(36).slice(2)}/${name}`;

  before(async () => {
    s3 = await startS3rver(BUCKET);
    storage = make();
  });
  after(() => s3.close());

  it('stores, opens and reads back a file with its content type', async () => {
    const k = key('a.png');
    await storage.put(k, Buffer.from('png bytes'), 'image/png');
    assert.deepEqual(await storage.read(k), Buffer.from('png bytes'));
    const file = await storage.open(k);
    assert.ok(file);
    assert.equal(file.size, 9);
    assert.equal(file.contentType, 'image/png');
    file.stream.destroy();
  });

  it('answers undefined for a key that does not exist', async () => {
    assert.equal(await storage.open(key('none.png')), undefined);
    assert.equal(await storage.read(key('none.png')), undefined);
  });

  it('presigns a PUT that signs Content-Type and Content-Length, and a plain fetch uploads to it', async () => {
    const k = key('up.webp');
    const data = Buffer.from('webp!');
    const before = Date.now();
    const upload = await storage.presignPut(k, { contentType: 'image/webp', sizeBytes: data.length });
    assert.equal(upload.method, 'PUT');
    assert.deepEqual(upload.headers, { 'Content-Type': 'image/webp' });
    assert.ok(Math.abs(upload.expiresAt.getTime() - (before + 600_000)) < 5_000);
    const url = new URL(upload.url);
    assert.equal(url.searchParams.get('X-Amz-SignedHeaders'), 'content-length;content-type;host');
    assert.equal(url.searchParams.get('X-Amz-Expires'), '600');
    assert.equal(url.searchParams.get('x-amz-checksum-crc32'), null, 'no checksum of an empty body is signed in');

    const res = await fetch(upload.url, { method: 'PUT', headers: upload.headers, body: data });
    assert.equal(res.status, 200, await res.text());
    assert.deepEqual(await storage.read(k), data);
    assert.equal((await storage.open(k))?.contentType, 'image/webp');
  });

  it('presigns a GET that serves the file until it expires', async () => {
    const k = key('get.png');
    await storage.put(k, Buffer.from('served'), 'image/png');
    const res = await fetch(await storage.signedGetUrl(k));
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'image/png');
    assert.equal(await res.text(), 'served');

    // Expiry is time, and S3 counts it in whole seconds from the signing time (X-Amz-Date): the
    // shortest TTL is 1 s, and the URL is polled until the server refuses it, no sooner than that.
    const shortLived = make(1);
    const url = await shortLived.signedGetUrl(k);
    const signedAt = Date.parse(new URL(url).searchParams.get('X-Amz-Date')!.replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/, '$1-$2-$3T$4:$5:$6Z'));
    await waitFor(async () => (await fetch(url)).status === 403, 5_000, 'the presigned URL to expire');
    assert.ok(Date.now() >= signedAt + 1_000, 'refused only once its second has passed');
    assert.deepEqual(await shortLived.checkSignedUrl(new URL(url)), { kind: 'invalid' });
  });

  it('recognizes its own presigned GET URLs and refuses altered ones', async () => {
    const k = key('own.png');
    const url = new URL(await storage.signedGetUrl(k));
    assert.deepEqual(await storage.checkSignedUrl(url), { kind: 'valid', key: k });

    const tampered = new URL(url);
    tampered.searchParams.set('X-Amz-Signature', '0'.repeat(64));
    const otherKey = new URL(url);
    otherKey.pathname = otherKey.pathname.replace('own.png', 'other.png');
    const longer = new URL(url);
    longer.searchParams.set('X-Amz-Expires', '604800');
    const unsigned = new URL(url);
    unsigned.search = '';
    for (const bad of [tampered, otherKey, longer, unsigned]) {
      assert.deepEqual(await storage.checkSignedUrl(bad), { kind: 'invalid' }, bad.href);
    }

    const otherBucket = new URL(url);
    otherBucket.pathname = otherBucket.pathname.replace(`/${BUCKET}/`, '/another-bucket/');
    for (const foreign of [otherBucket, new URL('https://example.com/test-bucket/own.png')]) {
      assert.deepEqual(await storage.checkSignedUrl(foreign), { kind: 'foreign' }, foreign.href);
    }
  });

  it('reads its presigned URLs as own input files, without an HTTP fetch', async () => {
    const k = key('input.png');
    await storage.put(k, Buffer.from('input image'), 'image/png');
    // The endpoint is plain http on 127.0.0.1, which the input fetcher would refuse: only
    // recognizing the URL as our own lets it through.
    const file = await resolveInputUrl(await storage.signedGetUrl(k), { param: 'image_url', storage, allowedTypes: ['image/'], maxBytes: 1000 });
    assert.deepEqual(file, { data: Buffer.from('input image'), contentType: 'image/png', source: 'own' });
  });

  it('is what STORAGE=s3 selects, configured by the S3_* settings', async () => {
    assert.throws(
      () => createStorage(loadConfig({ STORAGE: 's3' })),
      (err: unknown) => err instanceof ConfigError && /S3_BUCKET is required/.test(err.message),
    );
    assert.throws(() => loadConfig({ STORAGE: 's3', S3_BUCKET: BUCKET, S3_ACCESS_KEY_ID: 'only-one' }), ConfigError);
    assert.throws(() => loadConfig({ S3_ENDPOINT: 'not a url' }), ConfigError);
    assert.throws(() => createStorage(loadConfig({ STORAGE: 's3', S3_BUCKET: BUCKET, OUTPUT_URL_TTL_SECONDS: String(8 * 86_400) })), /at most 604800/);

    const configured = createStorage(
      loadConfig({
        STORAGE: 's3',
        S3_BUCKET: BUCKET,
        S3_ENDPOINT: s3.endpoint,
        S3_FORCE_PATH_STYLE: 'true',
        S3_ACCESS_KEY_ID: S3RVER_CREDENTIALS.accessKeyId,
        S3_SECRET_ACCESS_KEY: S3RVER_CREDENTIALS.secretAccessKey,
      }),
    );
    const k = key('configured.jpg');
    await configured.put(k, Buffer.from('jpeg'), 'image/jpeg');
    assert.deepEqual(await storage.read(k), Buffer.from('jpeg'));
  });
});
