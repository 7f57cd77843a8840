import assert from 'node:assert/strict';
import { call, createOrganization, waitForGeneration } from '../helpers/http';
import { assertLedgerBalanced } from '../helpers/ledger';
import { closeDashboard, layoutShifts, openDashboard, reopen, screenshot, signIn, useDashboardBrowser, type DashboardSession } from './harness';

// What holds on every view (issue 38, item 9): nothing moves as data arrives, the keyboard reaches
// everything, and nothing is wider than a phone.

interface BrowserDocument {
  activeElement: { tagName: string; textContent: string | null } | null;
  documentElement: { scrollWidth: number; clientWidth: number };
  querySelectorAll(selector: string): { length: number };
}

const SECTIONS = ['/', '/generations', '/try', '/comparisons', '/keys', '/users', '/webhooks'];

/** Waits until the view shows no loading indicator. */
const settled = (session: DashboardSession) =>
  session.page.waitForFunction(() => (globalThis as unknown as { document: BrowserDocument }).document.querySelectorAll('.spinner').length === 0, undefined, { timeout: 20_000 });

describe('dashboard: quality on every view', function () {
  this.timeout(120_000);
  const browser = useDashboardBrowser();

  it('opens every view with a layout shift score under 0.1 (no layout shift on load), on a desktop and at 375 px wide with nothing wider than the screen', async () => {
    const org = await createOrganization();
    // Something to show: a finished image.
    const image = await call('POST', '/v1/images', { key: org.liveKey, body: { model: 'flux-schnell', prompt: 'a quiet harbour' } });
    assert.equal(image.status, 200);
    await waitForGeneration(image.body.id, org.liveKey);
    for (const width of [1280, 375]) {
      const session = await openDashboard(browser(), { width });
      await signIn(session, org.liveKey);
      for (const section of [...SECTIONS, `/generations/${image.body.id}`]) {
        await reopen(session, section);
        await settled(session);
        const { score, moved } = await layoutShifts(session);
        assert.ok(score < 0.1, `${section} at ${width} px: layout shift ${score.toFixed(3)}:\n${moved.join('\n')}`);
        const overflow = await session.page.evaluate(() => {
          const root = (globalThis as unknown as { document: BrowserDocument }).document.documentElement;
          return root.scrollWidth - root.clientWidth;
        });
        assert.equal(overflow, 0, `${section} at ${width} px: nothing wider than the screen`);
      }
      await closeDashboard(session);
    }
    await assertLedgerBalanced(org.id);
  });

  it('is usable by keyboard: Tab reaches the navigation and Enter opens a view', async () => {
    const org = await createOrganization();
    const session = await openDashboard(browser());
    // The key field takes focus on load (autofocus, which Chrome applies at its next rendering
    // step, after the load event): typing and Enter sign in.
    await session.page.waitForFunction(() => (globalThis as unknown as { document: { activeElement: { id: string } | null } }).document.activeElement?.id === 'api-key');
    await session.page.keyboard.type(org.testKey);
    await session.page.keyboard.press('Enter');
    await session.page.getByTestId('whoami').waitFor();
    let reached = false;
    for (let i = 0; i < 10 && !reached; i++) {
      await session.page.keyboard.press('Tab');
      const focused = await session.page.evaluate(() => (globalThis as unknown as { document: BrowserDocument }).document.activeElement?.textContent ?? '');
      reached = focused.trim() === 'Generations';
    }
    assert.ok(reached, 'Tab reaches the Generations link');
    await session.page.keyboard.press('Enter');
    await session.page.waitForURL(/#\/generations$/);
    await screenshot(session, 'keyboard-generations');
    await closeDashboard(session);
  });
});
