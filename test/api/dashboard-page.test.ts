import assert from 'node:assert/strict';
import { mkdtemp, mkdir, writeFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadDashboardBuild } from '../../api/dashboard-page/assets';
import { dashboardContentSecurityPolicy } from '../../api/dashboard-page/content-security-policy';
import { mediaOriginsOf } from '../../storage/media-origins';
import { call } from '../helpers/http';
import { rawGet } from '../helpers/raw-get';
import { stack } from '../helpers/stack';

// GET /dashboard and its files over plain HTTP: what the browser tests (test/dashboard/) rely on.

describe('dashboard page (GET /dashboard)', () => {
  it('answers the page as HTML with a Content-Security-Policy allowing scripts and styles from its own origin only, media and fetches from storage besides, and no inline script', async () => {
    const res = await call('GET', '/dashboard');
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/html; charset=utf-8$/);
    const policy = res.headers.get('content-security-policy') ?? '';
    assert.equal(policy, dashboardContentSecurityPolicy([new URL(stack().apiUrl).origin]));
    const media = new URL(stack().apiUrl).origin;
    for (const directive of [
      "script-src 'self'",
      "style-src 'self'",
      `img-src 'self' blob: data: ${media}`,
      `connect-src 'self' ${media}`,
      "object-src 'none'",
      "frame-ancestors 'none'",
    ]) {
      assert.ok(policy.split('; ').includes(directive), directive);
    }
    assert.doesNotMatch(policy, /unsafe-(inline|eval)/);
    assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(res.headers.get('referrer-policy'), 'no-referrer');
    const html = res.body as string;
    assert.match(html, /<div id="app"><\/div>/);
    assert.doesNotMatch(html, /<script>|<script(?![^>]*\bsrc=)[^>]*>/, 'no inline script: the CSP allows none');
    assert.doesNotMatch(html, /(src|href)="(https?:)?\/\//, 'every asset from our own origin');
  });

  it('serves each file the page names with its type, a year of caching and an ETag that revalidates; the page itself revalidates too', async () => {
    const page = await call('GET', '/dashboard');
    const urls = [...(page.body as string).matchAll(/(?:src|href)="(\/dashboard\/assets\/[^"]+)"/g)].map((m) => m[1]!);
    assert.ok(urls.some((u) => u.endsWith('.js')) && urls.some((u) => u.endsWith('.css')), `a script and a stylesheet: ${urls.join(', ')}`);
    for (const url of urls) {
      const res = await fetch(`${stack().apiUrl}${url}`);
      assert.equal(res.status, 200, url);
      assert.match(res.headers.get('content-type') ?? '', url.endsWith('.js') ? /^application\/javascript; charset=utf-8$/ : /^text\/css; charset=utf-8$/, url);
      assert.equal(res.headers.get('cache-control'), 'public, max-age=31536000, immutable', url);
      assert.ok((await res.arrayBuffer()).byteLength > 0, url);
      const again = await rawGet(url, { 'If-None-Match': res.headers.get('etag')! });
      assert.equal(again.status, 304, `${url} revalidates`);
    }
    assert.equal(page.headers.get('cache-control'), 'no-cache', 'the page is revalidated, so a new build is seen at once');
    assert.equal((await rawGet('/dashboard', { 'If-None-Match': page.headers.get('etag')! })).status, 304);
  });

  it('answers 404 resource_not_found for any other name, and no path escapes the build directory', async () => {
    for (const pathAsSent of [
      '/dashboard/assets/nope.js',
      '/dashboard/assets/index.html',
      '/dashboard/assets/../../package.json',
      '/dashboard/assets/..%2F..%2Fpackage.json',
      '/dashboard/assets/%2e%2e%2findex.html',
      '/dashboard/assets/__proto__',
      '/dashboard/assets/constructor',
    ]) {
      const res = await rawGet(pathAsSent);
      assert.equal(res.status, 404, pathAsSent);
      assert.equal((JSON.parse(res.body) as { error: { code: string } }).error.code, 'resource_not_found', pathAsSent);
    }
  });

  it('reads a build directory by name only: nothing when unbuilt, and no source maps or unknown files', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'dashboard-build-'));
    try {
      assert.equal(loadDashboardBuild(dir), undefined, 'no index.html: not built');
      await mkdir(path.join(dir, 'assets'));
      await writeFile(path.join(dir, 'index.html'), '<!doctype html>');
      await writeFile(path.join(dir, 'assets', 'index-abc.js'), 'export {}');
      await writeFile(path.join(dir, 'assets', 'index-abc.js.map'), '{}');
      await writeFile(path.join(dir, 'assets', 'notes.txt'), 'x');
      const build = loadDashboardBuild(dir)!;
      assert.deepEqual([...build.assets.keys()], ['index-abc.js']);
      assert.equal(build.page.body.toString(), '<!doctype html>');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('lets the page load outputs from where storage signs them: the public base URL, or the S3 endpoint and its bucket hosts', () => {
    const base = { publicBaseUrl: 'https://gen.example.com/api', s3Endpoint: undefined, s3ForcePathStyle: false };
    assert.deepEqual(mediaOriginsOf({ ...base, storage: 'local' }), ['https://gen.example.com']);
    assert.deepEqual(mediaOriginsOf({ ...base, storage: 's3' }), ['https://*.amazonaws.com']);
    assert.deepEqual(mediaOriginsOf({ ...base, storage: 's3', s3Endpoint: 'http://minio:9000', s3ForcePathStyle: true }), ['http://minio:9000']);
    assert.deepEqual(mediaOriginsOf({ ...base, storage: 's3', s3Endpoint: 'https://storage.example.net' }), ['https://storage.example.net', 'https://*.storage.example.net']);
  });
});
