import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

// The dashboard's built files (dashboard/ built by Vite into dashboard/dist at install time, see
// docs/dashboard.md), read once into memory and served by name from a fixed list: never a path
// joined from the URL, so no request can reach another file.

export interface DashboardAsset {
  contentType: string;
  body: Buffer;
  /** A strong validator of the body, for If-None-Match. */
  etag: string;
}

export interface DashboardBuild {
  /** The page itself, whose asset URLs carry content hashes. */
  page: DashboardAsset;
  /** dist/assets/* by file name. */
  assets: Map<string, DashboardAsset>;
}

/** Where `npm run dashboard:build` writes. */
export const DASHBOARD_DIST_DIR = path.resolve(__dirname, '../../dashboard/dist');

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'application/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
};

const asset = (contentType: string, body: Buffer): DashboardAsset => ({
  contentType,
  body,
  etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`,
});

/** Reads a build directory; undefined when it has not been built. */
export function loadDashboardBuild(dir: string = DASHBOARD_DIST_DIR): DashboardBuild | undefined {
  const indexFile = path.join(dir, 'index.html');
  if (!existsSync(indexFile)) return undefined;
  const assetsDir = path.join(dir, 'assets');
  const assets = new Map<string, DashboardAsset>();
  for (const name of existsSync(assetsDir) ? readdirSync(assetsDir) : []) {
    const type = CONTENT_TYPES[path.extname(name)];
    // Source maps and anything else unexpected stay on disk.
    if (type) assets.set(name, asset(type, readFileSync(path.join(assetsDir, name))));
  }
  return { page: asset(CONTENT_TYPES['.html']!, readFileSync(indexFile)), assets };
}
