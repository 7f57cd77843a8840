import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { DOCS_CONTENT_SECURITY_POLICY } from '../../api/docs-page/page';
import { call } from '../helpers/http';
import { launchOfflineChromium, refuseOtherOrigins } from '../helpers/offline-chromium';
import { rawGet } from '../helpers/raw-get';
import { stack } from '../helpers/stack';

// GET /docs, the API reference: its files over plain HTTP, then the page in a real headless
// Chromium with every request outside the API's own origin refused, which is what "renders with no
// network" means.

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

interface OpenApiDocument {
  info: { title: string };
  paths?: Record<string, Record<string, { responses?: Record<string, unknown> }>>;
  webhooks?: Record<string, Record<string, unknown>>;
}

/** The little of the DOM the page check reads (the project compiles without the DOM's types). */
interface BrowserDocument {
  querySelector(selector: string): { textContent: string | null } | null;
  querySelectorAll(selector: string): { length: number };
}

const operationsOf = (items: Record<string, Record<string, unknown>> = {}) => Object.values(items).flatMap((item) => Object.keys(item).filter((k) => HTTP_METHODS.includes(k)));

describe('API reference page (GET /docs)', () => {
  const loadDocument = async (): Promise<OpenApiDocument> => {
    const res = await call<OpenApiDocument>('GET', '/openapi.json');
    assert.equal(res.status, 200);
    return res.body;
  };

  describe('over HTTP', () => {
    it('answers the page as text/html with a Content-Security-Policy that allows nothing from another origin', async () => {
      const res = await call('GET', '/docs');
      assert.equal(res.status, 200);
      assert.match(res.headers.get('content-type') ?? '', /^text\/html; charset=utf-8$/);
      assert.equal(res.headers.get('content-security-policy'), DOCS_CONTENT_SECURITY_POLICY);
      assert.match(DOCS_CONTENT_SECURITY_POLICY, /^default-src 'self';/);
      assert.doesNotMatch(DOCS_CONTENT_SECURITY_POLICY, /https?:|\*|'unsafe-eval'|script-src[^;]*'unsafe-inline'/);
      const html = res.body as string;
      assert.ok(html.includes(`<title>${(await loadDocument()).info.title}: API reference</title>`), 'titled like the document');
      assert.match(html, /<div id="swagger-ui"><\/div>/);
      assert.doesNotMatch(html, /<script>|<script [^>]*>[^<]/, 'no inline script: the CSP allows none');
      assert.doesNotMatch(html, /(src|href)="(https?:)?\/\//, 'every asset from our own origin');
    });

    it('serves each asset the page names with its content type, a year of caching and an ETag', async () => {
      const html = (await call('GET', '/docs')).body as string;
      const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
      assert.deepEqual(assets.map((url) => new URL(url, 'http://x').pathname).sort(), [
        '/docs/assets/docs-init.js',
        '/docs/assets/favicon-16x16.png',
        '/docs/assets/favicon-32x32.png',
        '/docs/assets/swagger-ui-bundle.js',
        '/docs/assets/swagger-ui.css',
      ]);
      const expectedType: Record<string, RegExp> = { js: /^application\/javascript; charset=utf-8$/, css: /^text\/css; charset=utf-8$/, png: /^image\/png$/ };
      for (const url of assets) {
        assert.match(url, /\?v=\d+\.\d+\.\d+$/, `${url} carries swagger-ui-dist's version`);
        const res = await fetch(`${stack().apiUrl}${url}`);
        assert.equal(res.status, 200, url);
        assert.match(res.headers.get('content-type') ?? '', expectedType[url.replace(/\?.*$/, '').split('.').pop()!]!, url);
        assert.equal(res.headers.get('cache-control'), 'public, max-age=31536000, immutable', url);
        assert.ok((await res.arrayBuffer()).byteLength > 0, url);
        const etag = res.headers.get('etag');
        assert.ok(etag, url);
        const again = await rawGet(url, { 'If-None-Match': etag });
        assert.equal(again.status, 304, `${url} revalidates`);
      }
      const bundle = await fetch(`${stack().apiUrl}/docs/assets/swagger-ui-bundle.js`);
      assert.match(await bundle.text(), /SwaggerUIBundle/);
    });

    it('answers 404 resource_not_found, as JSON, for any name outside the allow-list, other files of the package included', async () => {
      for (const name of ['index.html', 'swagger-ui-bundle.js.map', 'package.json', 'swagger-initializer.js', 'nope.js', 'constructor', '__proto__']) {
        const res = await call('GET', `/docs/assets/${name}`);
        assert.equal(res.status, 404, name);
        assert.match(res.headers.get('content-type') ?? '', /^application\/json/, name);
        assert.equal(res.body.error.code, 'resource_not_found', name);
        assert.equal(res.body.error.type, 'invalid_request_error', name);
        assert.ok(res.body.error.request_id, name);
      }
    });

    it('lets no `..` path escape to another file', async () => {
      for (const pathAsSent of [
        '/docs/assets/../../package.json',
        '/docs/assets/..%2F..%2Fpackage.json',
        '/docs/assets/%2e%2e%2f%2e%2e%2fpackage.json',
        '/docs/assets/..%5C..%5Cpackage.json',
        '/docs/assets/%2Fetc%2Fpasswd',
        '/docs/assets/swagger-ui-dist%2Fpackage.json',
        '/docs/assets/..',
      ]) {
        const res = await rawGet(pathAsSent);
        assert.equal(res.status, 404, pathAsSent);
        assert.equal((JSON.parse(res.body) as { error: { code: string } }).error.code, 'resource_not_found', pathAsSent);
      }
    });
  });

  describe('in a headless Chromium with no network', function () {
    let browser: Browser;
    before(async function () {
      // The first run on a machine installs Debian's chromium (embedded/chromium.ts): minutes, not seconds.
      this.timeout(15 * 60_000);
      browser = await launchOfflineChromium();
    });
    after(() => browser?.close());

    it('renders the document: its title, one block per operation, and an operation opened to its responses, with no request to another origin and no error', async function () {
      this.timeout(120_000);
      const openapi = await loadDocument();
      const origin = new URL(stack().apiUrl).origin;
      const failed: string[] = [];
      const consoleErrors: string[] = [];
      const pageErrors: string[] = [];

      const context = await browser.newContext();
      try {
        const offOrigin = await refuseOtherOrigins(context, origin);
        const page = await context.newPage();
        page.on('console', (message) => {
          if (message.type() === 'error') consoleErrors.push(message.text());
        });
        page.on('pageerror', (error) => pageErrors.push(error.message));
        page.on('requestfailed', (req) => failed.push(`${req.url()}: ${req.failure()?.errorText}`));
        page.on('response', (res) => {
          if (res.status() >= 400) failed.push(`${res.url()}: ${res.status()}`);
        });

        const started = Date.now();
        const response = await page.goto(`${origin}/docs`);
        assert.equal(response?.status(), 200);

        const expectedOperations = operationsOf(openapi.paths).length + operationsOf(openapi.webhooks).length;
        assert.ok(expectedOperations > 0);
        await page.waitForFunction(
          ({ title, count }) => {
            const dom = (globalThis as unknown as { document: BrowserDocument }).document;
            return (dom.querySelector('.info .title')?.textContent ?? '').includes(title) && dom.querySelectorAll('.opblock').length === count;
          },
          { title: openapi.info.title, count: expectedOperations },
          { timeout: 60_000 },
        );
        const rendered = Date.now() - started;

        // Open the first operation of the first path: its responses are listed, code by code.
        const [firstPath, firstItem] = Object.entries(openapi.paths ?? {})[0]!;
        const firstMethod = Object.keys(firstItem).find((k) => HTTP_METHODS.includes(k))!;
        const block = page
          .locator(`.opblock-${firstMethod}`)
          .filter({ has: page.locator(`[data-path="${firstPath}"]`) })
          .first();
        await block.locator('.opblock-summary').first().click();
        await block.locator('.responses-table').first().waitFor({ timeout: 30_000 });
        const codes = await block.locator('.responses-table > tbody > tr.response').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-code')));
        assert.deepEqual(codes.sort(), Object.keys(firstItem[firstMethod]!.responses ?? {}).sort(), `${firstMethod.toUpperCase()} ${firstPath}'s responses`);

        assert.deepEqual(offOrigin, [], 'requests to another origin');
        assert.deepEqual(failed, [], 'failed requests');
        assert.deepEqual(consoleErrors, [], 'console errors');
        assert.deepEqual(pageErrors, [], 'page errors');
        console.log(`      (rendered ${expectedOperations} operations in ${rendered} ms)`);
      } finally {
        await context.close();
      }
    });
  });
});
