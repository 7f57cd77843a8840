// The HTML of GET /docs: Swagger UI rendering GET /openapi.json, every file from our own origin
// (api/docs-page/assets.ts). The page carries no inline script, so its Content-Security-Policy
// allows scripts from 'self' only.

/**
 * What Swagger UI needs and nothing more: its scripts, styles and the document from our origin;
 * its icons are data: URIs and its React components set inline styles. Nothing from another
 * origin, no plugins, and no framing (the page never needs to be embedded).
 */
export const DOCS_CONTENT_SECURITY_POLICY =
  "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/**
 * Starts Swagger UI on the document. No validator (it would send the document to
 * validator.swagger.io), no configuration from the query string (a `?url=` would render another
 * origin's document under our name), and the plain layout, without the top bar's URL box.
 */
export const SWAGGER_UI_INIT_SCRIPT = `'use strict';
window.addEventListener('DOMContentLoaded', function () {
  window.ui = SwaggerUIBundle({
    url: '/openapi.json',
    dom_id: '#swagger-ui',
    validatorUrl: null,
    queryConfigEnabled: false,
    deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
  });
});
`;

/** Our own script that starts Swagger UI: a file, not an inline script, so CSP needs no 'unsafe-inline' for scripts. */
export const INIT_SCRIPT_NAME = 'docs-init.js';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The page, whose assets are named under `assetBase` with `version` as a cache-busting query. */
export function docsPageHtml(title: string, assetBase: string, version: string): string {
  const url = (name: string) => `${assetBase}/${name}?v=${encodeURIComponent(version)}`;
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>${escapeHtml(title)}</title>
    <link rel="stylesheet" href="${url('swagger-ui.css')}">
    <link rel="icon" type="image/png" sizes="32x32" href="${url('favicon-32x32.png')}">
    <link rel="icon" type="image/png" sizes="16x16" href="${url('favicon-16x16.png')}">
  </head>
  <body>
    <div id="swagger-ui"></div>
    <script src="${url('swagger-ui-bundle.js')}"></script>
    <script src="${url(INIT_SCRIPT_NAME)}"></script>
  </body>
</html>
`;
}
