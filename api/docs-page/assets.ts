import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { INIT_SCRIPT_NAME, SWAGGER_UI_INIT_SCRIPT } from './page';

// The files the /docs page loads, all from our own origin (no CDN: the page works offline and under
// a strict Content-Security-Policy). A fixed allow-list by name, never a path joined from the URL,
// so no request can reach any other file of the package or the disk.

export interface DocsAsset {
  contentType: string;
  body: Buffer;
  /** A strong validator of the body, for If-None-Match. */
  etag: string;
}

const SWAGGER_UI_FILES: Record<string, string> = {
  'swagger-ui-bundle.js': 'application/javascript; charset=utf-8',
  'swagger-ui.css': 'text/css; charset=utf-8',
  'favicon-32x32.png': 'image/png',
  'favicon-16x16.png': 'image/png',
};

/** swagger-ui-dist's version, in every asset URL, so that a browser may cache an asset for a year and an upgrade still reaches it. */
export const SWAGGER_UI_VERSION = (JSON.parse(readFileSync(require.resolve('swagger-ui-dist/package.json'), 'utf8')) as { version: string }).version;

const asset = (contentType: string, body: Buffer): DocsAsset => ({
  contentType,
  body,
  etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`,
});

let loaded: Map<string, DocsAsset> | undefined;

/** The assets by file name, read on first use (about 2 MB, kept in memory: the page loads them all at once). */
function assets(): Map<string, DocsAsset> {
  loaded ??= new Map([
    ...Object.entries(SWAGGER_UI_FILES).map(([name, type]) => [name, asset(type, readFileSync(require.resolve(`swagger-ui-dist/${name}`)))] as const),
    [INIT_SCRIPT_NAME, asset('application/javascript; charset=utf-8', Buffer.from(SWAGGER_UI_INIT_SCRIPT))] as const,
  ]);
  return loaded;
}

/** The asset of this name, or undefined for any name outside the allow-list. */
export const findDocsAsset = (name: string): DocsAsset | undefined => assets().get(name);
