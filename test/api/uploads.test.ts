import assert from 'node:assert/strict';
import http from 'node:http';
import { resolveInputUrl } from '../../api/admission/fetch-input';
import { MAX_UPLOAD_BYTES } from '../../api/schemas/uploads';
import { call, createOrganization, type TestOrganization } from '../helpers/http';
import { createKeyWithRole } from '../helpers/keys';
import { stack } from '../helpers/stack';

interface Upload {
  id: string;
  upload_url: string;
  method: string;
  headers: Record<string, string>;
  expires_at: string;
  file_url: string;
}

const bytes = (n: number, fill = 1) => Buffer.alloc(n, fill);

function put(url: string, body: Buffer, headers: Record<string, string>) {
  return fetch(url, { method: 'PUT', headers, body });
}

/** A PUT without Content-Length: the body arrives chunked, in pieces. */
function putChunked(url: string, contentType: string, chunks: Buffer[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'PUT', headers: { 'Content-Type': contentType, 'Transfer-Encoding': 'chunked' } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.once('error', reject);
    for (const chunk of chunks) req.write(chunk);
    req.end();
  });
}

async function errorCode(res: Response): Promise<string> {
  return ((await res.json()) as { error: { code: string } }).error.code;
}

describe('uploads', () => {
  let org: TestOrganization;
  const create = async (body: unknown, key = org.liveKey) => call('POST', '/v1/uploads', { key, body });
  const createValid = async (sizeBytes: number, contentType = 'image/png') => {
    const res = await create({ filename: 'cat photo.png', content_type: contentType, size_bytes: sizeBytes });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body as Upload;
  };

  before(async () => {
    org = await createOrganization();
  });

  it('creates an upload, takes the PUT, and serves the same bytes at file_url', async () => {
    const res = await create({ filename: 'cat photo.png', content_type: 'image/png', size_bytes: 500 });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const upload = res.body;
    assert.match(upload.id, /^upl_/);
    assert.equal(upload.object, 'upload');
    assert.equal(upload.method, 'PUT');
    assert.deepEqual(upload.headers, { 'Content-Type': 'image/png' });
    assert.equal(upload.filename, 'cat photo.png');
    assert.equal(upload.content_type, 'image/png');
    assert.equal(upload.size_bytes, 500);
    assert.ok(Date.parse(upload.expires_at) > Date.now());
    assert.ok(!Number.isNaN(Date.parse(String(upload.created_at))));
    assert.match(new URL(upload.upload_url).pathname, new RegExp(`^/files/uploads/${org.id}/${upload.id}/cat_photo\\.png$`));

    const data = bytes(500, 42);
    const uploaded = await put(upload.upload_url, data, upload.headers);
    assert.equal(uploaded.status, 200);

    const file = await fetch(upload.file_url);
    assert.equal(file.status, 200);
    assert.equal(file.headers.get('content-type'), 'image/png');
    assert.deepEqual(Buffer.from(await file.arrayBuffer()), data);
  });

  it('takes a file larger than the 1 MiB JSON limit: the PUT body is not parsed as JSON', async () => {
    const upload = await createValid(1_500_000, 'image/webp');
    assert.equal((await put(upload.upload_url, bytes(1_500_000), upload.headers)).status, 200);
    const file = await fetch(upload.file_url);
    assert.equal(file.headers.get('content-type'), 'image/webp');
    assert.equal((await file.arrayBuffer()).byteLength, 1_500_000);
  });

  it('refuses a tampered or expired upload URL with 403', async () => {
    const upload = await createValid(10);
    const url = new URL(upload.upload_url);
    const tamperedSignature = new URL(url);
    tamperedSignature.searchParams.set('signature', '0'.repeat(64));
    const raisedSize = new URL(url);
    raisedSize.searchParams.set('max_bytes', '99999999');
    const otherType = new URL(url);
    otherType.searchParams.set('content_type', 'image/jpeg');
    const key = decodeURIComponent(url.pathname.slice('/files/'.length));
    const expired = stack().apiDeps.urlSigner.signPut(key, { contentType: 'image/png', maxBytes: 10 }, { now: new Date(Date.now() - 7200_000) });
    for (const bad of [tamperedSignature.href, raisedSize.href, otherType.href, expired.url]) {
      const res = await put(bad, bytes(10), { 'Content-Type': 'image/png' });
      assert.equal(res.status, 403, bad);
      assert.equal(await errorCode(res), 'invalid_signature');
    }
  });

  it('refuses a PUT over the signed size with 413, with or without Content-Length', async () => {
    const upload = await createValid(10);
    const res = await put(upload.upload_url, bytes(11), upload.headers);
    assert.equal(res.status, 413);
    assert.equal(await errorCode(res), 'payload_too_large');
    assert.equal(await putChunked(upload.upload_url, 'image/png', [bytes(8), bytes(8)]), 413);
    assert.equal((await fetch(upload.file_url)).status, 404, 'nothing was stored');
    assert.equal(await putChunked(upload.upload_url, 'image/png', [bytes(5), bytes(5)]), 200);
  });

  it('refuses a PUT with another Content-Type than the signed one with 403', async () => {
    const upload = await createValid(10);
    for (const contentType of ['image/jpeg', 'application/octet-stream', 'image/png; charset=binary']) {
      const res = await put(upload.upload_url, bytes(10), { 'Content-Type': contentType });
      assert.equal(res.status, 403, contentType);
      assert.equal(await errorCode(res), 'invalid_signature');
    }
  });

  it('does not accept the upload URL for a GET, nor the file URL for a PUT', async () => {
    const upload = await createValid(10);
    assert.equal((await put(upload.upload_url, bytes(10), upload.headers)).status, 200);
    assert.equal((await fetch(upload.upload_url)).status, 403);
    assert.equal((await put(upload.file_url, bytes(10), upload.headers)).status, 403);
  });

  it('validates the body, naming the bad field', async () => {
    const valid = { filename: 'a.png', content_type: 'image/png', size_bytes: 10 };
    const cases: [unknown, string][] = [
      [{ ...valid, content_type: 'image/gif' }, 'content_type'],
      [{ ...valid, content_type: 'application/pdf' }, 'content_type'],
      [{ ...valid, size_bytes: 0 }, 'size_bytes'],
      [{ ...valid, size_bytes: MAX_UPLOAD_BYTES + 1 }, 'size_bytes'],
      [{ ...valid, size_bytes: 1.5 }, 'size_bytes'],
      [{ content_type: 'image/png', size_bytes: 10 }, 'filename'],
      [{ ...valid, filename: '' }, 'filename'],
      [{ ...valid, filename: 'x'.repeat(256) }, 'filename'],
      [{ ...valid, filename: '../etc/passwd' }, 'filename'],
      [{ ...valid, filename: 'dir\\a.png' }, 'filename'],
      [{ ...valid, url: 'https://example.com' }, 'url'],
    ];
    for (const [body, param] of cases) {
      const res = await create(body);
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal(res.body.error.code, 'validation_failed');
      assert.equal(res.body.error.param, param, JSON.stringify(body));
    }
    assert.equal((await create({ ...valid, size_bytes: MAX_UPLOAD_BYTES })).status, 201, '20 MB exactly is allowed');
  });

  it('needs the developer role and, for a scoped key, uploads:write', async () => {
    const body = { filename: 'a.png', content_type: 'image/png', size_bytes: 10 };
    const viewer = await create(body, await createKeyWithRole(org.id, 'viewer'));
    assert.equal(viewer.status, 403);
    assert.equal(viewer.body.error.code, 'insufficient_role');
    const imagesOnly = await create(body, await createKeyWithRole(org.id, 'developer', { scopes: ['images:write'] }));
    assert.equal(imagesOnly.status, 403);
    assert.equal((await create(body, await createKeyWithRole(org.id, 'developer', { scopes: ['uploads:write'] }))).status, 201);
  });

  it('records the upload for the key, in its organization and environment', async () => {
    const res = await create({ filename: 'b.jpeg', content_type: 'image/jpeg', size_bytes: 10 }, org.testKey);
    const row = await stack().repos.uploads.find(res.body.id, { organizationId: org.id, environment: 'test' });
    assert.ok(row);
    assert.equal(row.storage_key, `uploads/${org.id}/${res.body.id}/b.jpeg`);
    assert.equal(await stack().repos.uploads.find(res.body.id, { organizationId: org.id, environment: 'live' }), undefined);
  });

  it('gives the stored file an extension of its content type', async () => {
    const res = await create({ filename: '.hidden name', content_type: 'image/jpeg', size_bytes: 10 });
    assert.match(new URL(res.body.upload_url).pathname, /\/hidden_name\.jpg$/);
  });

  it('hands out a file_url that works as an input URL, read from storage', async () => {
    const upload = await createValid(64);
    const input = { param: 'image_url', storage: stack().apiDeps.storage, allowedTypes: ['image/'], maxBytes: MAX_UPLOAD_BYTES };
    await assert.rejects(resolveInputUrl(upload.file_url, input), /no file exists at this URL yet/);
    const data = bytes(64, 9);
    assert.equal((await put(upload.upload_url, data, upload.headers)).status, 200);
    assert.deepEqual(await resolveInputUrl(upload.file_url, input), { data, contentType: 'image/png', source: 'own' });
  });
});
