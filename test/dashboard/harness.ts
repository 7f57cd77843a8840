import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchOfflineChromium, refuseOtherOrigins } from '../helpers/offline-chromium';
import { stack } from '../helpers/stack';

// The dashboard's browser tests share this: one Chromium per test file, a fresh context (so a fresh
// sessionStorage) per test, signing in through the sign-in form as a person does, screenshots under
// .artifacts/dashboard/ (git-ignored; CI keeps them), and, at the end of every test, the checks that
// hold on every page: nothing requested outside the service's origin, no script error.

/** Where screenshots go: `<repo>/.artifacts/dashboard/<name>.png`. */
export const SCREENSHOT_DIR = path.resolve(__dirname, '../../.artifacts/dashboard');

/**
 * Records every layout shift the page makes (the Layout Instability API), for `layoutShifts`: its
 * score and what moved (the element, from where to where). Plain JavaScript text: a function here
 * would be compiled by tsx, whose helpers (`__name`) do not exist in the page.
 */
const RECORD_LAYOUT_SHIFTS = `
(() => {
  const shifts = [];
  globalThis.__layoutShifts = shifts;
  const rect = (r) => Math.round(r.x) + ',' + Math.round(r.y) + ' ' + Math.round(r.width) + 'x' + Math.round(r.height);
  const describe = (s) => {
    const node = s.node;
    const name = node ? node.nodeName + (typeof node.className === 'string' && node.className ? '.' + node.className.split(' ').join('.') : '') : '?';
    return name + ' "' + (node && node.textContent ? node.textContent.slice(0, 30) : '') + '" ' + rect(s.previousRect) + ' -> ' + rect(s.currentRect);
  };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) shifts.push({ value: entry.value, hadRecentInput: entry.hadRecentInput, moved: entry.sources.map(describe) });
  }).observe({ type: 'layout-shift', buffered: true });
})();
`;

export interface DashboardSession {
  page: Page;
  context: BrowserContext;
  origin: string;
  /** Requests refused because they left the origin. */
  offOrigin: string[];
  pageErrors: string[];
  consoleErrors: string[];
}

/** Starts Chromium for the file's tests (mocha before/after hooks); the returned getter gives the browser. */
export function useDashboardBrowser(): () => Browser {
  let browser: Browser | undefined;
  before(async function () {
    // The first run on a machine installs Debian's chromium: minutes, not seconds.
    this.timeout(15 * 60_000);
    browser = await launchOfflineChromium();
  });
  after(() => browser?.close());
  return () => {
    if (!browser) throw new Error('the browser is not started (useDashboardBrowser in a describe)');
    return browser;
  };
}

/** A new tab at `#<hash>` of the dashboard, not signed in. Size: a desktop, or `{ width: 375 }` for a phone. */
export async function openDashboard(browser: Browser, options: { width?: number; height?: number; hash?: string; colorScheme?: 'light' | 'dark' } = {}): Promise<DashboardSession> {
  const origin = new URL(stack().apiUrl).origin;
  const context = await browser.newContext({
    viewport: { width: options.width ?? 1280, height: options.height ?? 860 },
    colorScheme: options.colorScheme ?? 'light',
    permissions: ['clipboard-read', 'clipboard-write'],
  });
  const offOrigin = await refuseOtherOrigins(context, origin);
  await context.addInitScript({ content: RECORD_LAYOUT_SHIFTS });
  const page = await context.newPage();
  const session: DashboardSession = { page, context, origin, offOrigin, pageErrors: [], consoleErrors: [] };
  page.on('pageerror', (error) => session.pageErrors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') session.consoleErrors.push(message.text());
  });
  const response = await page.goto(`${origin}/dashboard${options.hash ? `#${options.hash.replace(/^#/, '')}` : ''}`);
  assert.equal(response?.status(), 200, 'GET /dashboard');
  return session;
}

/** Signs in through the form with `secret`, and waits for the header that shows who is signed in. */
export async function signIn(session: DashboardSession, secret: string): Promise<void> {
  const { page } = session;
  await page.getByLabel('API key').fill(secret);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByTestId('whoami').waitFor();
}

/** Opens the view at `hash` (e.g. `/generations`) in the signed-in tab. */
export async function go(session: DashboardSession, hash: string): Promise<void> {
  await session.page.evaluate((to) => {
    (globalThis as unknown as { location: { hash: string } }).location.hash = to;
  }, hash);
}

/**
 * The page's layout shifts so far, not counting those the person's own input caused: their score,
 * the sum of each shift (Chrome's Cumulative Layout Shift without its session windows, so never lower
 * than CLS; Web Vitals calls under 0.1 good), and what moved, to say so when a test fails.
 */
export async function layoutShifts(session: DashboardSession): Promise<{ score: number; moved: string[] }> {
  return session.page.evaluate(() => {
    const shifts = (globalThis as unknown as { __layoutShifts: { value: number; hadRecentInput: boolean; moved: string[] }[] }).__layoutShifts.filter((s) => !s.hadRecentInput);
    return { score: shifts.reduce((sum, s) => sum + s.value, 0), moved: shifts.flatMap((s) => s.moved.map((m) => `${s.value.toFixed(3)} ${m}`)) };
  });
}

/**
 * Loads the view at `hash` afresh in the signed-in tab (a reload: the key stays in sessionStorage),
 * as a person opening a link does. Layout shifts are counted from this load on, with no input of the
 * person's to excuse them.
 */
export async function reopen(session: DashboardSession, hash: string): Promise<void> {
  await session.page.goto(`${session.origin}/dashboard#${hash.replace(/^#/, '')}`);
  await session.page.reload();
  await session.page.getByTestId('whoami').waitFor();
}

/** Saves a full-page screenshot as `.artifacts/dashboard/<name>.png`. */
export async function screenshot(session: DashboardSession, name: string): Promise<string> {
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  const file = path.join(SCREENSHOT_DIR, `${name}.png`);
  await session.page.screenshot({ path: file, fullPage: true });
  return file;
}

/**
 * Closes the tab after the checks every page must pass: no request outside the origin, no uncaught
 * script error. Console errors the API's own refusals cause (a 4xx a test provoked on purpose) are
 * allowed by `expectedConsoleErrors`.
 */
export async function closeDashboard(session: DashboardSession, expectedConsoleErrors: RegExp[] = []): Promise<void> {
  try {
    assert.deepEqual(session.offOrigin, [], 'no request outside the service origin');
    assert.deepEqual(session.pageErrors, [], 'no uncaught script error');
    const unexpected = session.consoleErrors.filter(
      (text) => !/Failed to load resource: the server responded with a status of 4\d\d/.test(text) && !expectedConsoleErrors.some((re) => re.test(text)),
    );
    assert.deepEqual(unexpected, [], 'no console error');
  } finally {
    await session.context.close();
  }
}
