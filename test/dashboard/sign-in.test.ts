import assert from 'node:assert/strict';
import { call, createOrganization } from '../helpers/http';
import { closeDashboard, go, openDashboard, screenshot, signIn, useDashboardBrowser } from './harness';

// Signing in and out of the dashboard, what the header shows, and what a key that may do less sees.

interface BrowserWindow {
  sessionStorage: { length: number; key(i: number): string | null; getItem(k: string): string | null };
  document: { documentElement: { scrollWidth: number; clientWidth: number } };
}

const storedValues = () => {
  const { sessionStorage } = globalThis as unknown as BrowserWindow;
  return Array.from({ length: sessionStorage.length }, (_, i) => sessionStorage.getItem(sessionStorage.key(i)!) ?? '');
};

describe('dashboard: sign-in', function () {
  this.timeout(90_000);
  const browser = useDashboardBrowser();

  it('signs in with a live key: the header shows the organization, environment, role and scopes; the key is only in sessionStorage; sign-out clears it', async () => {
    const org = await createOrganization();
    const session = await openDashboard(browser());
    await screenshot(session, 'sign-in');
    await signIn(session, org.liveKey);
    const whoami = session.page.getByTestId('whoami');
    await assert.doesNotReject(whoami.getByText(org.id).waitFor());
    assert.match((await whoami.textContent()) ?? '', /live.*owner.*all scopes/s);
    assert.equal(await session.page.getByTestId('test-banner').count(), 0, 'no test banner for a live key');
    assert.ok(!session.page.url().includes(org.liveKey), 'never in the URL');
    assert.deepEqual(await session.page.evaluate(storedValues), [org.liveKey], 'kept in sessionStorage');
    await screenshot(session, 'overview');

    // A reload keeps the person signed in (same tab, same sessionStorage).
    await session.page.reload();
    await session.page.getByTestId('whoami').waitFor();

    await session.page.getByRole('button', { name: 'Sign out' }).click();
    await session.page.getByLabel('API key').waitFor();
    assert.deepEqual(await session.page.evaluate(storedValues), [], 'sign-out forgets the key');
    await closeDashboard(session);
  });

  it('signs in with a test key and shows the test-mode banner', async () => {
    const org = await createOrganization();
    const session = await openDashboard(browser());
    await signIn(session, org.testKey);
    const banner = session.page.getByTestId('test-banner');
    assert.match((await banner.textContent()) ?? '', /Test mode/);
    assert.match((await session.page.getByTestId('whoami').textContent()) ?? '', /test/);
    await screenshot(session, 'test-mode');
    await closeDashboard(session);
  });

  it('refuses a wrong key with the API’s message and stores nothing', async () => {
    const session = await openDashboard(browser());
    await session.page.getByLabel('API key').fill('sk_live_this_is_not_a_key');
    await session.page.getByRole('button', { name: 'Sign in' }).click();
    const alert = session.page.getByRole('alert');
    await alert.waitFor();
    assert.match((await alert.textContent()) ?? '', /key/i);
    assert.match((await alert.textContent()) ?? '', /request req_/, 'the request id to quote');
    assert.deepEqual(await session.page.evaluate(storedValues), []);
    await closeDashboard(session, [/401/]);
  });

  it('shows a viewer key only what it may open, and says so on a view it may not (the API refuses it too)', async () => {
    const org = await createOrganization();
    const created = await call('POST', '/v1/api-keys', { key: org.liveKey, body: { name: 'viewer', role: 'viewer' } });
    const viewer = created.body.secret as string;
    const session = await openDashboard(browser());
    await signIn(session, viewer);
    const nav = session.page.getByRole('navigation', { name: 'Sections' });
    const links = (await nav.getByRole('link').allTextContents()).sort();
    assert.deepEqual(links, ['Comparisons', 'Events', 'Generations', 'Overview', 'Try it'].sort(), 'the events feed is open to viewers, as GET /v1/events is');
    await go(session, '/keys');
    await session.page.getByText('This key may not open API keys').waitFor();
    assert.equal((await call('GET', '/v1/api-keys', { key: viewer })).status, 403, 'and the API refuses it anyway');
    await screenshot(session, 'viewer');
    await closeDashboard(session);
  });

  it('is readable at 375 px wide in the dark theme: nothing wider than the screen', async () => {
    const org = await createOrganization();
    const session = await openDashboard(browser(), { width: 375, height: 800, colorScheme: 'dark' });
    await signIn(session, org.testKey);
    const overflow = await session.page.evaluate(() => {
      const root = (globalThis as unknown as BrowserWindow).document.documentElement;
      return root.scrollWidth - root.clientWidth;
    });
    assert.equal(overflow, 0, 'no horizontal scroll');
    await screenshot(session, 'phone-dark');
    await closeDashboard(session);
  });
});
