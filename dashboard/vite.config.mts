import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// The dashboard's build: dashboard/dist/index.html and dist/assets/* with content-hashed names,
// served by the API at /dashboard (api/routes/dashboard.ts). Everything is bundled: the page loads
// nothing from another origin.
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/dashboard/',
  logLevel: 'warn',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: 'dist',
    assetsDir: 'assets',
    emptyOutDir: true,
    // Small icons stay files, not data: URIs, so the CSP stays narrow.
    assetsInlineLimit: 0,
    target: 'es2022',
    reportCompressedSize: false,
  },
});
