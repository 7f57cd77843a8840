import assert from 'node:assert/strict';
import { call, createOrganization, waitFor } from '../helpers/http';
import { assertLedgerBalanced } from '../helpers/ledger';
import { closeDashboard, go, openDashboard, screenshot, signIn, useDashboardBrowser } from './harness';

// The events feed in the dashboard (#/events): 21 events made through the API (sandbox images, one
// failing) shown newest first twenty to a page, Next and Previous through them without a gap or a
// repeat, and the type filter (kept in the hash) showing only the failure.

interface Envelope {
  id: string;
  type: string;
}

describe('dashboard: events', function () {
  this.timeout(120_000);
  const browser = useDashboardBrowser();

  it('pages through the events feed newest first and filters it by type', async () => {
    const org = await createOrganization();
    for (let n = 0; n < 21; n++) {
      const res = await call('POST', '/v1/images', { key: org.testKey, body: { model: 'flux-schnell', prompt: n === 7 ? `event ${n} #fail` : `event ${n}` } });
      assert.equal(res.status, 200, JSON.stringify(res.body));
    }
    const feed: Envelope[] = await waitFor(
      async () => {
        const page = (await call('GET', '/v1/events?limit=100', { key: org.testKey })).body;
        return page.data?.length === 21 ? page.data : undefined;
      },
      30_000,
      'the 21 events in the feed',
    );
    const failed = feed.filter((e) => e.type === 'generation.failed');
    assert.equal(failed.length, 1);

    const session = await openDashboard(browser(), { hash: '/events' });
    const { page } = session;
    await signIn(session, org.testKey);
    const rowIds = async () =>
      (await page.locator('tr[data-testid^="event-"]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-testid')))).map((t) => t!.slice('event-'.length));
    await page.getByTestId(`event-${feed[0]!.id}`).waitFor();
    assert.deepEqual(await rowIds(), ids(feed.slice(0, 20)), 'the first page: the 20 newest, in order');
    await screenshot(session, 'events');
    await page.getByRole('button', { name: 'Next →' }).click();
    await page.getByTestId(`event-${feed[20]!.id}`).waitFor();
    assert.deepEqual(await rowIds(), [feed[20]!.id], 'the second page: the oldest');
    assert.ok(await page.getByRole('button', { name: 'Next →' }).isDisabled());
    await page.getByRole('button', { name: '← Previous' }).click();
    await page.getByTestId(`event-${feed[0]!.id}`).waitFor();

    await page.getByLabel('Type').selectOption('generation.failed');
    await page.getByTestId(`event-${failed[0]!.id}`).waitFor();
    await page.waitForFunction(() => (globalThis as unknown as { location: { hash: string } }).location.hash.includes('type=generation.failed'));
    assert.deepEqual(await rowIds(), [failed[0]!.id]);
    await go(session, '/events?type=comparison.completed');
    await page.getByText('No events.').waitFor();
    await closeDashboard(session);
    await assertLedgerBalanced(org.id);
  });
});

const ids = (events: Envelope[]) => events.map((e) => e.id);
