import assert from 'node:assert/strict';
import { call, createOrganization } from '../helpers/http';
import { assertLedgerBalanced } from '../helpers/ledger';
import { closeDashboard, openDashboard, screenshot, signIn, useDashboardBrowser, type DashboardSession } from './harness';

// The overview: the balance and plan the API reports, this month's spend by day as a chart (and
// its table), by model and by modality, the keys' budget bars, and what a key that may not read
// usage sees instead. State is made through the API; every test that spends ends with the ledger check.

interface BrowserWindow {
  document: {
    querySelector(selector: string): { width: number; height: number; getBoundingClientRect(): { height: number } } | null;
    documentElement: { scrollWidth: number; clientWidth: number };
  };
}

const digits = (text: string | null) => (text ?? '').replace(/\D/g, '');

interface Cells {
  querySelectorAll(selector: 'td'): ArrayLike<{ textContent: string | null }>;
}

/** The rows of a table as arrays of cell texts. */
const tableRows = (session: DashboardSession, testId: string) =>
  session.page
    .getByTestId(testId)
    .locator('tbody tr')
    .evaluateAll((rows) => rows.map((row) => Array.from((row as unknown as Cells).querySelectorAll('td'), (td) => (td.textContent ?? '').trim())));

describe('dashboard: overview', function () {
  this.timeout(120_000);
  const browser = useDashboardBrowser();

  it('shows the balance the API reports, the plan, this month’s spend by day as a chart, by model and by modality, and a budget bar per budgeted key', async () => {
    const org = await createOrganization({ plan: 'pro' });
    const budgeted = await call('POST', '/v1/api-keys', { key: org.liveKey, body: { name: 'nightly batch', monthly_budget_usd: 5 } });
    assert.equal(budgeted.status, 201, JSON.stringify(budgeted.body));
    for (const prompt of ['a red kite', 'a blue kite']) {
      const made = await call('POST', '/v1/images', { key: budgeted.body.secret, body: { model: 'flux-schnell', prompt } });
      assert.equal(made.body.status, 'succeeded');
    }
    const chat = await call('POST', '/v1/chat', { key: org.liveKey, body: { model: 'gpt-5-mini', messages: [{ content: 'hello' }] } });
    assert.equal(chat.status, 200, JSON.stringify(chat.body));

    const balance = (await call('GET', '/v1/balance', { key: org.liveKey })).body;
    const byDay = (await call('GET', '/v1/usage?group_by=day', { key: org.liveKey })).body;
    const keys = (await call('GET', '/v1/api-keys', { key: org.liveKey })).body.data as { id: string; spent_usd_this_month: number }[];
    const today = new Date().toISOString().slice(0, 10);
    const todays = byDay.data.find((row: { key: string }) => row.key === today);
    assert.ok(todays && todays.usd > 0, 'the API reports spend today');

    const session = await openDashboard(browser());
    await signIn(session, org.liveKey);
    const available = session.page.getByTestId('balance-available');
    await session.page.waitForFunction(() =>
      /\d/.test(
        (globalThis as unknown as { document: { querySelector(s: string): { textContent: string } | null } }).document.querySelector('[data-testid=balance-available]')
          ?.textContent ?? '',
      ),
    );
    assert.equal(digits(await available.textContent()), String(balance.available_credits));
    assert.equal(digits(await session.page.getByTestId('balance-reserved').textContent()), String(balance.reserved_credits));
    assert.equal(await session.page.getByTestId('plan').textContent(), balance.plan);
    assert.match((await session.page.getByTestId('multiplier').textContent()) ?? '', new RegExp(`×${balance.multiplier}`));

    // The chart: a canvas drawn in the reserved box, and the same figures as a table for screen readers.
    await session.page.getByTestId('spend-chart').locator('canvas').waitFor();
    const chart = await session.page.evaluate(() => {
      const { document } = globalThis as unknown as BrowserWindow;
      const canvas = document.querySelector('[data-testid=spend-chart] canvas');
      return { canvasWidth: canvas?.width ?? 0, boxHeight: document.querySelector('[data-testid=spend-chart]')?.getBoundingClientRect().height ?? 0 };
    });
    assert.ok(chart.canvasWidth > 0, 'the chart is drawn');
    assert.equal(chart.boxHeight, 220, 'the chart’s box keeps its fixed height');
    const days = await tableRows(session, 'spend-by-day');
    assert.equal(days[0]?.[0], byDay.from, 'the table starts on the first day of the month');
    assert.equal(days.at(-1)?.[0], today, 'and ends today');
    const todayRow = days.find((cells) => cells[0] === today);
    assert.equal(Number(todayRow?.[1]?.replace(/[^\d.]/g, '')), todays.usd, 'today’s spend as the API reports it');

    const models = await tableRows(session, 'spend-by-model');
    assert.deepEqual(models.map((cells) => cells[0]).sort(), ['flux-schnell', 'gpt-5-mini']);
    assert.equal(models.find((cells) => cells[0] === 'flux-schnell')?.[1], '2', 'two image generations');
    const modalities = await tableRows(session, 'spend-by-modality');
    assert.deepEqual(modalities.map((cells) => cells[0]).sort(), ['chat', 'image']);

    // Only the budgeted key gets a bar, filled to what it spent this month.
    const bars = session.page.getByTestId('budgets').locator('[role=meter]');
    await bars.first().waitFor();
    assert.equal(await bars.count(), 1);
    const spent = keys.find((k) => k.id === budgeted.body.id)?.spent_usd_this_month;
    assert.ok(spent && spent > 0);
    assert.equal(Number(await bars.first().getAttribute('aria-valuenow')), spent);
    assert.equal(Number(await bars.first().getAttribute('aria-valuemax')), 5);
    await screenshot(session, 'overview-spend');
    await closeDashboard(session);

    // The same in the dark theme and at 375 px: nothing wider than the screen.
    const phone = await openDashboard(browser(), { width: 375, height: 800, colorScheme: 'dark' });
    await signIn(phone, org.liveKey);
    await phone.page.getByTestId('spend-chart').locator('canvas').waitFor();
    await phone.page.getByTestId('budgets').locator('[role=meter]').waitFor();
    const overflow = await phone.page.evaluate(() => {
      const root = (globalThis as unknown as BrowserWindow).document.documentElement;
      return root.scrollWidth - root.clientWidth;
    });
    assert.equal(overflow, 0, 'no horizontal scroll');
    await screenshot(phone, 'overview-phone-dark');
    await closeDashboard(phone);
    await assertLedgerBalanced(org.id);
  });

  it('shows a key without usage:read the plan but not the balance or spend, and the API refuses them to it', async () => {
    const org = await createOrganization();
    const created = await call('POST', '/v1/api-keys', { key: org.liveKey, body: { name: 'images only', role: 'developer', scopes: ['images:write', 'generations:read'] } });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const key = created.body.secret as string;
    assert.equal((await call('GET', '/v1/balance', { key })).status, 403);
    assert.equal((await call('GET', '/v1/usage', { key })).status, 403);

    const session = await openDashboard(browser());
    await signIn(session, key);
    await session.page.getByTestId('usage-hint').waitFor();
    assert.equal(await session.page.getByTestId('plan').textContent(), 'pro');
    assert.equal(await session.page.getByTestId('balance-available').count(), 0);
    assert.equal(await session.page.getByTestId('spend-chart').count(), 0);
    assert.equal(await session.page.getByTestId('budgets').count(), 0, 'a developer key lists no keys');
    await screenshot(session, 'overview-no-usage-scope');
    await closeDashboard(session);
  });
});
