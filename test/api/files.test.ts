import assert from 'node:assert/strict';
import { createUrlSigner } from '../../storage/url-signer';
import { call, createOrganization } from '../helpers/http';
import { stack } from '../helpers/stack';

describe('signed output URLs', () => {
  let url: URL;
  before(async () => {
    const org = await createOrganization();
    const res = await call('POST', '/v1/images', { key: org.testKey, body: { model: 'flux-schnell', prompt: 'signed' } });
    url = new URL(res.body.outputs[0].url);
  });

  it('serves the file with a valid signature and no API key', async () => {
    const res = await fetch(url);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'image/png');
  });

  it('serves outputs and uploads with X-Content-Type-Options: nosniff, so a browser never reads them as another type', async () => {
    const org = await createOrganization();
    const data = Buffer.from('<html><script>alert(1)</script></html>');
    const upload = await call('POST', '/v1/uploads', { key: org.liveKey, body: { filename: 'x.png', content_type: 'image/png', size_bytes: data.length } });
    assert.equal((await fetch(upload.body.upload_url, { method: 'PUT', headers: upload.body.headers, body: data })).status, 200);
    for (const fileUrl of [url, new URL(upload.body.file_url)]) {
      const res = await fetch(fileUrl);
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('content-type'), 'image/png');
      assert.equal(res.headers.get('x-content-type-options'), 'nosniff', fileUrl.pathname);
    }
  });

  it('refuses a tampered signature, a tampered expiry and a missing signature with 403', async () => {
    const tampered = new URL(url);
    const sig = tampered.searchParams.get('signature') ?? '';
    tampered.searchParams.set('signature', (sig[0] === 'a' ? 'b' : 'a') + sig.slice(1));
    const later = new URL(url);
    later.searchParams.set('expires', String(Number(later.searchParams.get('expires')) + 1));
    const unsigned = new URL(url);
    unsigned.search = '';
    for (const bad of [tampered, later, unsigned]) {
      const res = await fetch(bad);
      assert.equal(res.status, 403);
      assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'invalid_signature');
    }
  });

  it('refuses an expired URL', async () => {
    const signer = createUrlSigner({ secret: 'test-url-signing-secret', publicBaseUrl: stack().apiUrl, ttlSeconds: 60 });
    const key = url.pathname.slice('/files/'.length);
    const expired = signer.sign(key, new Date(Date.now() - 61_000));
    assert.equal((await fetch(expired)).status, 403);
    assert.equal((await fetch(signer.sign(key))).status, 200);
  });

  it('never serves a path outside storage (a valid signature for no file is 404)', async () => {
    const signer = createUrlSigner({ secret: 'test-url-signing-secret', publicBaseUrl: stack().apiUrl, ttlSeconds: 60 });
    const res = await fetch(signer.sign('../../etc/passwd'));
    assert.equal(res.status, 404);
  });
});
