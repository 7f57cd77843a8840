import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { call, createOrganization } from '../helpers/http';
import { assertLedgerBalanced } from '../helpers/ledger';
import { closeDashboard, go, openDashboard, screenshot, signIn, useDashboardBrowser, type DashboardSession } from './harness';

// Comparisons: one created from the dashboard's form (its estimated total is what the API
// reserves), followed to its end, its models' outputs side by side with each one's cost and time as
// the API gives them; and a viewer key, which sees no form and which the API refuses anyway.

const MODELS = ['flux-schnell', 'flux-dev', 'imagen-4'];

/** An output's address without its signature, which changes with each reading (it expires). */
const withoutSignature = (url: string) => url.split('?')[0];

interface BrowserImage {
  complete: boolean;
  naturalWidth: number;
  addEventListener(event: string, listener: () => void): void;
}

interface BrowserWindow {
  document: { documentElement: { scrollWidth: number; clientWidth: number } };
}

/** Waits until every <img> of the grid has loaded and returns their natural widths. */
async function renderedWidths(session: DashboardSession): Promise<number[]> {
  const images = session.page.getByTestId('cmp-grid').locator('img');
  await images.nth(MODELS.length - 1).waitFor();
  const widths: number[] = [];
  for (let i = 0; i < (await images.count()); i++) {
    // Outputs load lazily: bring each on screen, as a person scrolling would.
    await images.nth(i).scrollIntoViewIfNeeded();
    widths.push(
      await images.nth(i).evaluate(
        (img) =>
          new Promise<number>((resolve) => {
            const image = img as unknown as BrowserImage;
            if (image.complete) resolve(image.naturalWidth);
            else image.addEventListener('load', () => resolve(image.naturalWidth));
          }),
      ),
    );
  }
  return widths;
}

const columnBoxes = async (session: DashboardSession) => {
  const columns = session.page.getByTestId('cmp-column');
  return Promise.all(Array.from({ length: await columns.count() }, async (_, i) => (await columns.nth(i).boundingBox())!));
};

describe('dashboard: comparisons', function () {
  this.timeout(150_000);
  const browser = useDashboardBrowser();

  it('creates a comparison of three image models from the form and shows the three outputs side by side, each with its model, cost and time as the API gives them', async () => {
    const org = await createOrganization({ plan: 'pro', credits: 10_000 });
    const session = await openDashboard(browser(), { hash: '/comparisons' });
    await signIn(session, org.liveKey);
    const { page } = session;
    await page.getByRole('button', { name: 'New comparison' }).click();
    await page.getByLabel('Modality').selectOption('image');
    for (const slug of MODELS) await page.getByTestId('new-comparison').locator(`input[type="checkbox"][value="${slug}"]`).check();
    await page.getByLabel('Prompt').fill(`a red kite over the dunes ${Date.now()}`);
    const estimate = page.getByTestId('estimate');
    await estimate.getByTestId('estimate-credits').waitFor();
    const estimatedTotal = Number(await estimate.getAttribute('data-reserved'));
    assert.ok(estimatedTotal > 0);
    await screenshot(session, 'comparison-form');

    await page.getByTestId('cmp-submit').click();
    await page.waitForURL(/#\/comparisons\/cmp_/);
    const id = decodeURIComponent(page.url().split('#/comparisons/')[1]!);
    await page.locator('[data-testid="comparison"]:is([data-status="succeeded"], [data-status="partial"], [data-status="failed"])').waitFor({ timeout: 90_000 });
    const comparison = (await call('GET', `/v1/comparisons/${id}`, { key: org.liveKey })).body;
    assert.equal(comparison.status, 'succeeded');
    assert.deepEqual(comparison.models, MODELS);
    assert.equal(comparison.reserved_credits, estimatedTotal, 'the estimated total shown is what the API reserved');

    const widths = await renderedWidths(session);
    assert.equal(widths.length, 3, 'three images');
    assert.ok(
      widths.every((w) => w > 0),
      'each rendered',
    );
    assert.deepEqual(await page.getByTestId('cmp-model').allTextContents(), MODELS, 'each captioned with its model');

    // Each column's cost and time are its generation's, from the API.
    const columns = page.getByTestId('cmp-column');
    const digests = new Set<string>();
    for (let i = 0; i < MODELS.length; i++) {
      const column = columns.nth(i);
      const generation = (await call('GET', `/v1/generations/${await column.getAttribute('data-generation-id')}`, { key: org.liveKey })).body;
      assert.equal(generation.model, MODELS[i]);
      assert.equal(Number(await column.getByTestId('cmp-cost').getAttribute('data-credits')), generation.charged_credits);
      assert.equal((await column.getByTestId('cmp-cost').textContent())?.replace(/\D/g, ''), String(generation.charged_credits));
      assert.equal(Number(await column.getByTestId('cmp-time').getAttribute('data-ms')), Date.parse(generation.finished_at) - Date.parse(generation.created_at));
      assert.equal(withoutSignature((await column.locator('img').getAttribute('src'))!), withoutSignature(generation.outputs[0].url), 'its own output');
      // The simulator writes each model's name into its image: three different pictures.
      const bytes = Buffer.from(await (await fetch(generation.outputs[0].url)).arrayBuffer());
      digests.add(createHash('sha256').update(bytes).digest('hex'));
    }
    assert.equal(digests.size, 3, 'the three images differ');

    // Side by side on a desktop: one row, three columns left to right.
    const boxes = await columnBoxes(session);
    assert.ok(
      boxes.every((b) => Math.abs(b.y - boxes[0]!.y) < 1),
      'one row',
    );
    assert.ok(boxes[0]!.x < boxes[1]!.x && boxes[1]!.x < boxes[2]!.x, 'left to right');
    await screenshot(session, 'comparison-side-by-side');
    await closeDashboard(session);

    // Stacked on a phone, with nothing wider than the screen.
    const phone = await openDashboard(browser(), { width: 375, height: 800, hash: `/comparisons/${id}` });
    await signIn(phone, org.liveKey);
    await renderedWidths(phone);
    const stacked = await columnBoxes(phone);
    assert.ok(stacked[0]!.y < stacked[1]!.y && stacked[1]!.y < stacked[2]!.y, 'one above the other');
    assert.ok(stacked.every((b) => Math.abs(b.x - stacked[0]!.x) < 1));
    const overflow = await phone.page.evaluate(() => {
      const root = (globalThis as unknown as BrowserWindow).document.documentElement;
      return root.scrollWidth - root.clientWidth;
    });
    assert.equal(overflow, 0, 'no horizontal scroll at 375 px');
    await screenshot(phone, 'comparison-side-by-side-375');

    // The list shows it, linked.
    await go(phone, '/comparisons');
    await phone.page.locator(`a[href="#/comparisons/${id}"]`).waitFor();
    await closeDashboard(phone);
    await assertLedgerBalanced(org.id);
  });

  it('shows a viewer key no form to create a comparison, and the API refuses its POST', async () => {
    const org = await createOrganization({ plan: 'pro', credits: 10_000 });
    const created = await call('POST', '/v1/api-keys', { key: org.liveKey, body: { name: 'viewer', role: 'viewer' } });
    const viewer = created.body.secret as string;
    const session = await openDashboard(browser(), { hash: '/comparisons' });
    await signIn(session, viewer);
    await session.page.getByRole('heading', { name: 'Comparisons' }).waitFor();
    await session.page.getByText('No comparisons yet.').waitFor();
    assert.equal(await session.page.getByRole('button', { name: 'New comparison' }).count(), 0, 'no create button');
    assert.equal(await session.page.getByTestId('new-comparison').count(), 0, 'no form');
    const refused = await call('POST', '/v1/comparisons', { key: viewer, body: { prompt: 'a kite', models: MODELS } });
    assert.equal(refused.status, 403, 'and the API refuses it anyway');
    assert.deepEqual((await call('GET', '/v1/comparisons', { key: org.liveKey })).body.data, [], 'nothing made');
    await closeDashboard(session);
    await assertLedgerBalanced(org.id);
  });

  it('follows a running comparison with each model’s status, and cancels it from the page: every model canceled and refunded', async () => {
    const org = await createOrganization({ plan: 'pro', credits: 100_000 });
    const created = await call('POST', '/v1/comparisons', { key: org.liveKey, body: { prompt: 'a long take #slow:600000', models: ['hailuo-02', 'luma-ray-2-flash'] } });
    assert.equal(created.status, 202, JSON.stringify(created.body));
    const session = await openDashboard(browser(), { hash: `/comparisons/${created.body.id}` });
    await signIn(session, org.liveKey);
    const { page } = session;
    await page.getByText('0 of 2 models done').waitFor();
    assert.deepEqual(await page.getByTestId('cmp-model').allTextContents(), ['hailuo-02', 'luma-ray-2-flash']);
    await screenshot(session, 'comparison-running');

    await page.getByRole('button', { name: 'Cancel the comparison' }).click();
    await page.locator('[data-testid="comparison"][data-status="failed"]').waitFor({ timeout: 60_000 });
    assert.equal(await page.getByRole('button', { name: 'Cancel the comparison' }).count(), 0, 'nothing left to cancel');
    const comparison = (await call('GET', `/v1/comparisons/${created.body.id}`, { key: org.liveKey })).body;
    assert.equal(comparison.status, 'failed');
    assert.deepEqual(
      comparison.generations.map((g: { status: string }) => g.status),
      ['canceled', 'canceled'],
    );
    assert.equal(comparison.refunded_credits, comparison.reserved_credits);
    await page.locator('[data-testid="cmp-column"] .badge.status-canceled').nth(1).waitFor();
    assert.equal((await page.getByTestId('cmp-charged').textContent())?.replace(/\D/g, ''), '0');
    await closeDashboard(session);
    await assertLedgerBalanced(org.id);
  });
});
