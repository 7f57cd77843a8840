import { chromium, type Browser, type BrowserContext } from 'playwright-core';
import { ensureChromium } from '../../embedded/chromium';

// A headless Chromium with no network but the service's own origin, for the page tests (/docs and
// the dashboard): Debian's chromium (embedded/chromium.ts installs it the first time), every
// request to another origin refused and recorded, so a test can assert there was none.

/** Launches the browser. The first run on a machine installs Debian's chromium: minutes, not seconds. */
export async function launchOfflineChromium(): Promise<Browser> {
  const executablePath = await ensureChromium();
  return chromium.launch({
    executablePath,
    // Playwright gives each launch a fresh, empty profile (user-data-dir) of its own.
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-default-apps',
      '--disable-extensions',
      // Belt and braces beside the request routing below: anything not on loopback goes to a
      // proxy that does not exist, so even a request the page could not route fails offline.
      '--proxy-server=http://127.0.0.1:9',
    ],
  });
}

/** Aborts every request of `context` outside `origin` and returns the list of those URLs, which grows as they happen. */
export async function refuseOtherOrigins(context: BrowserContext, origin: string): Promise<string[]> {
  const offOrigin: string[] = [];
  await context.route('**/*', async (route) => {
    const url = route.request().url();
    // data: and blob: URLs never leave the page.
    if (/^(data|blob):/.test(url) || new URL(url).origin === origin) return route.continue();
    offOrigin.push(url);
    return route.abort('internetdisconnected');
  });
  return offOrigin;
}
