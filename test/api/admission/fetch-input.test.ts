import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { ApiError } from '../../../api/errors';
import { resolveInputUrl, type ResolveInputOptions } from '../../../api/admission/fetch-input';
import { createUrlSigner } from '../../../storage/url-signer';
import { stack } from '../../helpers/stack';
import { selfSignedCertificate, startHttpsServer, type TestCertificate } from '../../helpers/tls';

const IMAGE = Buffer.alloc(300, 7);

async function refused(url: string, opts: ResolveInputOptions, pattern: RegExp): Promise<void> {
  await assert.rejects(resolveInputUrl(url, opts), (err: unknown) => {
    assert.ok(err instanceof ApiError, String(err));
    assert.equal(err.status, 400);
    assert.equal(err.code, 'validation_failed');
    assert.equal(err.param, 'image_url');
    assert.match(err.message, pattern);
    return true;
  });
}

describe('input URLs', () => {
  let certificate: TestCertificate;
  let server: { port: number; close(): Promise<void> };
  const requests: string[] = [];

  // public.test is our local server, made to count as public by the injected resolver and address
  // policy; internal.test and mixed.test resolve to addresses the guard must refuse.
  const lookup = async (host: string) =>
    ({
      'public.test': [{ address: '127.0.0.1', family: 4 }],
      'internal.test': [{ address: '127.0.0.2', family: 4 }],
      'mixed.test': [
        { address: '93.184.215.14', family: 4 },
        { address: '10.0.0.5', family: 4 },
      ],
    })[host] ?? [];
  const options = (extra: Partial<ResolveInputOptions> = {}): ResolveInputOptions => ({
    param: 'image_url',
    storage: stack().apiDeps.storage,
    allowedTypes: ['image/'],
    maxBytes: 1000,
    ...extra,
  });
  const viaPublicTest = (extra: Partial<ResolveInputOptions> = {}) => options({ lookup, isAllowedAddress: (ip) => ip === '127.0.0.1', ca: certificate.cert, ...extra });
  const at = (path: string) => `https://public.test:${server.port}${path}`;

  before(async () => {
    certificate = await selfSignedCertificate(['public.test', 'internal.test']);
    const redirect = (res: ServerResponse, location: string) => res.writeHead(302, { Location: location }).end();
    server = await startHttpsServer(certificate, (req, res) => {
      const path = req.url ?? '';
      requests.push(path);
      const hops = /^\/hops\/(\d+)$/.exec(path);
      if (hops) return Number(hops[1]) === 0 ? redirect(res, '/image.png') : redirect(res, `/hops/${Number(hops[1]) - 1}`);
      switch (path) {
        case '/image.png':
          return res.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': IMAGE.length }).end(IMAGE);
        case '/big':
          return res.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': 5000 }).end(Buffer.alloc(5000));
        case '/big-chunked':
          res.writeHead(200, { 'Content-Type': 'image/png' });
          for (let i = 0; i < 10; i++) res.write(Buffer.alloc(500));
          return res.end();
        case '/page.html':
          return res.writeHead(200, { 'Content-Type': 'text/html' }).end('<html></html>');
        case '/missing':
          return res.writeHead(404).end();
        case '/hang':
          return undefined;
        case '/stall':
          res.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': 500 });
          return res.write(Buffer.alloc(10));
        case '/breaks-off':
          res.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': 500 });
          // The headers and the first bytes arrive; then the connection drops.
          return res.write(Buffer.alloc(10), () => setTimeout(() => res.destroy(), 50));
        case '/to-private':
          return redirect(res, 'https://10.0.0.1/secret');
        case '/to-metadata':
          return redirect(res, 'https://169.254.169.254/latest/meta-data');
        case '/to-internal':
          return redirect(res, `https://internal.test:${server.port}/image.png`);
        case '/to-http':
          return redirect(res, `http://public.test:${server.port}/image.png`);
        default:
          return res.writeHead(404).end();
      }
    });
  });
  after(() => server.close());

  it('refuses a file whose server breaks off mid-body with a 400 naming the cause, not a 500', async () => {
    await refused(at('/breaks-off'), viaPublicTest(), /broke off while sending the file/);
  });

  describe('the address guard', () => {
    it('refuses literal loopback, private, link-local and metadata addresses, v4 and v6', async () => {
      for (const url of [
        'https://127.0.0.1/',
        'https://10.1.2.3/',
        'https://169.254.169.254/latest/meta-data',
        'https://[::1]/',
        'https://[::ffff:127.0.0.1]/',
        'https://[fe80::1]/',
        'https://[fd00::1]/',
        'https://100.64.0.1/',
        'https://0.0.0.0/',
        'https://2130706433/', // 127.0.0.1 in disguise; the URL parser normalizes it
      ]) {
        await refused(url, options(), /private or reserved address/);
      }
    });

    it('refuses a host name that resolves to loopback', async () => {
      await refused('https://localhost/', options(), /localhost resolves to a private or reserved address/);
    });

    it('refuses a host when any one of its addresses is private', async () => {
      await refused('https://mixed.test/', options({ lookup }), /10\.0\.0\.5/);
    });

    it('refuses anything but https', async () => {
      for (const url of ['http://example.com/a.png', 'ftp://example.com/a.png', 'file:///etc/passwd']) {
        await refused(url, options(), /only https URLs/);
      }
      await refused('not a url', options(), /not a valid URL/);
    });

    it('re-checks every redirect and refuses one to a private address, scheme or host', async () => {
      await refused(at('/to-private'), viaPublicTest(), /10\.0\.0\.1/);
      await refused(at('/to-metadata'), viaPublicTest(), /169\.254\.169\.254/);
      await refused(at('/to-internal'), viaPublicTest(), /internal\.test resolves to a private or reserved address \(127\.0\.0\.2\)/);
      await refused(at('/to-http'), viaPublicTest(), /only https URLs/);
    });

    it('follows up to three redirects and no more', async () => {
      const file = await resolveInputUrl(at('/hops/2'), viaPublicTest());
      assert.deepEqual(file.data, IMAGE);
      const before = requests.length;
      await refused(at('/hops/3'), viaPublicTest(), /more than 3 redirects/);
      assert.equal(requests.length - before, 4, 'the fourth redirect is not followed');
    });

    it('allows private addresses only when told to (ALLOW_PRIVATE_INPUT_URLS)', async () => {
      const url = `https://127.0.0.1:${server.port}/image.png`;
      await refused(url, options({ ca: certificate.cert }), /private or reserved address/);
      const file = await resolveInputUrl(url, options({ ca: certificate.cert, allowPrivateAddresses: true }));
      assert.deepEqual(file, { data: IMAGE, contentType: 'image/png', source: 'remote' });
    });
  });

  describe('remote files', () => {
    it('fetches a public https image', async () => {
      const file = await resolveInputUrl(at('/image.png'), viaPublicTest());
      assert.deepEqual(file, { data: IMAGE, contentType: 'image/png', source: 'remote' });
    });

    it('refuses a file over the size limit, with or without Content-Length', async () => {
      await refused(at('/big'), viaPublicTest(), /larger than 1000 bytes/);
      await refused(at('/big-chunked'), viaPublicTest(), /larger than 1000 bytes/);
    });

    it('refuses a media type that is not allowed', async () => {
      await refused(at('/page.html'), viaPublicTest(), /text\/html; expected image\//);
      await refused(at('/image.png'), viaPublicTest({ allowedTypes: ['audio/'] }), /image\/png; expected audio\//);
    });

    it('refuses an error status, an untrusted certificate and a server that does not answer in time', async () => {
      await refused(at('/missing'), viaPublicTest(), /HTTP 404/);
      await refused(at('/image.png'), viaPublicTest({ ca: undefined }), /could not be fetched/);
      await refused(at('/hang'), viaPublicTest({ timeoutMs: 300 }), /did not answer within 0.3 s/);
      await refused(at('/stall'), viaPublicTest({ timeoutMs: 300 }), /did not send the file within 0.3 s/);
    });
  });

  describe('own signed file URLs', () => {
    const key = `uploads/test/${Date.now()}/own.png`;
    before(() => stack().apiDeps.storage.put(key, IMAGE, 'image/png'));

    it('reads a valid one straight from storage', async () => {
      const url = await stack().apiDeps.storage.signedGetUrl(key);
      const before = requests.length;
      assert.deepEqual(await resolveInputUrl(url, options()), { data: IMAGE, contentType: 'image/png', source: 'own' });
      assert.equal(requests.length, before);
    });

    it('refuses a tampered, an expired and an unsigned one', async () => {
      const url = new URL(await stack().apiDeps.storage.signedGetUrl(key));
      const tampered = new URL(url);
      tampered.searchParams.set('signature', '0'.repeat(64));
      const unsigned = new URL(url);
      unsigned.search = '';
      const signer = createUrlSigner({ secret: 'test-url-signing-secret', publicBaseUrl: stack().apiUrl, ttlSeconds: 60 });
      const expired = signer.sign(key, new Date(Date.now() - 61_000));
      for (const bad of [tampered.href, unsigned.href, expired]) {
        await refused(bad, options(), /invalid or has expired/);
      }
    });

    it('applies the same type and size limits, and refuses a file that does not exist', async () => {
      const url = await stack().apiDeps.storage.signedGetUrl(key);
      await refused(url, options({ maxBytes: 100 }), /larger than 100 bytes/);
      await refused(url, options({ allowedTypes: ['video/'] }), /image\/png; expected video\//);
      await refused(await stack().apiDeps.storage.signedGetUrl('uploads/test/none.png'), options(), /no file exists/);
    });
  });
});
