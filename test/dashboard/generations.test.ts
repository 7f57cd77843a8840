import assert from 'node:assert/strict';
import { call, createOrganization, waitFor, waitForGeneration } from '../helpers/http';
import { assertLedgerBalanced, ledgerKinds } from '../helpers/ledger';
import { closeDashboard, go, openDashboard, screenshot, signIn, useDashboardBrowser, type DashboardSession } from './harness';

// The generations views: the list (filters and pages in the hash) and a generation's page (its
// media rendered from the output URL, cost, provenance, the 1 s refresh while it runs, Cancel).
// Every generation is made through the API as a client would; every test ends with the ledger check.

interface BrowserWindow {
  document: {
    querySelector(selector: string): { naturalWidth?: number; readyState?: number; currentSrc?: string; src?: string } | null;
    documentElement: { scrollWidth: number; clientWidth: number };
  };
  location: { hash: string };
}

const slowVideo = (ms: number) => ({ model: 'hailuo-02', prompt: `a long take #slow:${ms}`, duration_s: 6 });

/** Waits until the list shows exactly `ids` (it reloads on every hash change). */
async function waitForRows(session: DashboardSession, ids: string[]): Promise<void> {
  await session.page.waitForFunction(
    (expected) => {
      const { document } = globalThis as unknown as { document: { querySelectorAll(s: string): ArrayLike<{ getAttribute(n: string): string | null }> } };
      const shown = Array.from(document.querySelectorAll('[data-generation-id]'), (r) => r.getAttribute('data-generation-id'));
      return shown.join(',') === expected.join(',');
    },
    ids,
    { timeout: 15_000 },
  );
}

const hashOf = (session: DashboardSession) => session.page.evaluate(() => (globalThis as unknown as BrowserWindow).location.hash);

describe('dashboard: generations', function () {
  this.timeout(120_000);
  const browser = useDashboardBrowser();

  it('shows an image made through the API on its detail page: rendered from its same-origin output URL, with cost, provenance and timings', async () => {
    const org = await createOrganization();
    const made = await call('POST', '/v1/images', { key: org.liveKey, body: { model: 'flux-schnell', prompt: 'a lighthouse at dusk' } });
    assert.equal(made.status, 200, JSON.stringify(made.body));
    assert.equal(made.body.status, 'succeeded');

    const session = await openDashboard(browser());
    await signIn(session, org.liveKey);
    await go(session, '/generations');
    await waitForRows(session, [made.body.id]);
    await session.page.getByRole('link', { name: made.body.id }).click();
    await session.page.getByTestId('generation').waitFor();
    assert.equal(await hashOf(session), `#/generations/${made.body.id}`);

    const img = session.page.getByTestId('media').locator('img');
    await session.page.waitForFunction(() => ((globalThis as unknown as BrowserWindow).document.querySelector('[data-testid=media] img')?.naturalWidth ?? 0) > 0, undefined, {
      timeout: 15_000,
    });
    const src = (await img.getAttribute('src')) ?? '';
    assert.equal(new URL(src).origin, session.origin, 'the output is served by the service itself');
    assert.equal(new URL(src).pathname, new URL(made.body.outputs[0].url).pathname, 'the generation’s own output');
    assert.equal(Number(await img.evaluate((el: { naturalWidth: number }) => el.naturalWidth)), made.body.outputs[0].width);

    const digits = async (testId: string) => ((await session.page.getByTestId(testId).textContent()) ?? '').replace(/\D/g, '');
    assert.equal(await digits('charged'), String(made.body.charged_credits));
    assert.equal(await digits('refunded'), String(made.body.refunded_credits));
    const provenance = (await session.page.getByTestId('provenance').textContent()) ?? '';
    assert.ok(provenance.includes(made.body.provider), `provider ${made.body.provider} in ${provenance}`);
    assert.ok(provenance.includes(made.body.provider_model));
    assert.equal(await session.page.getByTestId('attempts').locator('tbody tr').count(), made.body.attempts.length);
    assert.match((await session.page.getByTestId('timing').textContent()) ?? '', /Duration\d/);
    assert.equal(await session.page.getByTestId('cancel').count(), 0, 'no Cancel for a finished generation');
    await screenshot(session, 'generation-image');
    await closeDashboard(session);
    await assertLedgerBalanced(org.id);
  });

  it('filters the list by modality and status and pages with Previous and Next, all kept in the hash', async () => {
    const org = await createOrganization();
    const images: string[] = [];
    for (const prompt of ['one', 'two', 'three #fail']) {
      images.push((await call('POST', '/v1/images', { key: org.liveKey, body: { model: 'flux-schnell', prompt } })).body.id);
    }
    const video = await call('POST', '/v1/videos', { key: org.liveKey, body: { model: 'hailuo-02', prompt: 'waves' } });
    await waitForGeneration(video.body.id, org.liveKey);
    const newestFirst = [video.body.id, ...[...images].reverse()];

    const session = await openDashboard(browser());
    await signIn(session, org.liveKey);
    await go(session, '/generations?limit=2');
    await waitForRows(session, newestFirst.slice(0, 2));
    const previous = session.page.getByRole('button', { name: '← Previous' });
    const next = session.page.getByRole('button', { name: 'Next →' });
    assert.equal(await previous.isDisabled(), true, 'no page before the first');
    await next.click();
    await waitForRows(session, newestFirst.slice(2, 4));
    assert.equal(await hashOf(session), `#/generations?limit=2&after=${newestFirst[1]}`);
    await session.page.waitForFunction(() => {
      const { document } = globalThis as unknown as { document: { querySelector(s: string): { disabled: boolean } | null } };
      return document.querySelector('.pager button:nth-of-type(2)')?.disabled === true;
    });
    // A reload shows the same page (the cursor is in the hash), and Previous goes back.
    await session.page.reload();
    await waitForRows(session, newestFirst.slice(2, 4));
    await previous.click();
    await waitForRows(session, newestFirst.slice(0, 2));

    await session.page.getByLabel('Modality').selectOption('video');
    await waitForRows(session, [video.body.id]);
    assert.match(await hashOf(session), /modality=video/);
    await session.page.getByLabel('Modality').selectOption('image');
    await session.page.getByLabel('Status').selectOption('failed');
    await waitForRows(session, [images[2]!]);
    assert.match(await hashOf(session), /modality=image&status=failed/);
    assert.equal(await session.page.locator('[data-generation-id] [data-status]').first().getAttribute('data-status'), 'failed');
    await session.page.getByLabel('Status').selectOption('succeeded');
    await waitForRows(session, [images[1]!, images[0]!]);
    await session.page.getByLabel('Modality').selectOption('');
    await session.page.getByLabel('Status').selectOption('');
    await waitForRows(session, newestFirst.slice(0, 2));
    await screenshot(session, 'generations-list');
    await closeDashboard(session);
    await assertLedgerBalanced(org.id);
  });

  it('filters the list by model and by the API key that made each generation', async () => {
    const org = await createOrganization();
    const second = await call('POST', '/v1/api-keys', { key: org.liveKey, body: { name: 'batch jobs' } });
    const make = async (key: string, model: string) => (await call('POST', '/v1/images', { key, body: { model, prompt: `by ${model}` } })).body.id as string;
    const schnellByOwner = await make(org.liveKey, 'flux-schnell');
    const devByOwner = await make(org.liveKey, 'flux-dev');
    const schnellBySecond = await make(second.body.secret as string, 'flux-schnell');

    const session = await openDashboard(browser());
    await signIn(session, org.liveKey);
    await go(session, '/generations');
    await waitForRows(session, [schnellBySecond, devByOwner, schnellByOwner]);
    await session.page.getByLabel('Model').selectOption('flux-dev');
    await waitForRows(session, [devByOwner]);
    await session.page.getByLabel('Model').selectOption('flux-schnell');
    await waitForRows(session, [schnellBySecond, schnellByOwner]);
    await session.page.getByLabel('API key').selectOption({ label: `batch jobs (${second.body.prefix}…)` });
    await waitForRows(session, [schnellBySecond]);
    assert.match(await hashOf(session), new RegExp(`model=flux-schnell&api_key=${second.body.id}`));
    await session.page.getByLabel('Model').selectOption('');
    await session.page.getByLabel('API key').selectOption('');
    await waitForRows(session, [schnellBySecond, devByOwner, schnellByOwner]);
    await closeDashboard(session);
    await assertLedgerBalanced(org.id);
  });

  it('refreshes a running video until it finishes, then plays it; an audio generation gets a player', async () => {
    const org = await createOrganization();
    const speech = await call('POST', '/v1/voice', { key: org.liveKey, body: { model: 'openai-tts-1', text: 'Hello from the dashboard.' } });
    assert.equal(speech.body.status, 'succeeded');
    const session = await openDashboard(browser());
    await signIn(session, org.liveKey);
    // Made once the page is ready, so it is surely still running when the page opens it.
    const created = await call('POST', '/v1/videos', { key: org.liveKey, body: slowVideo(4000) });
    assert.equal(created.status, 202);
    await go(session, `/generations/${created.body.id}`);
    // Opened while it runs: progress shows (only a queued or running generation has it), then the
    // page finds it finished on its own, with no reload.
    await session.page.getByTestId('progress').waitFor();
    await session.page.locator('[data-testid=generation][data-status=succeeded]').waitFor({ timeout: 30_000 });
    assert.equal(await session.page.getByTestId('progress').count(), 0);
    const video = session.page.getByTestId('media').locator('video');
    assert.equal(new URL((await video.getAttribute('src')) ?? '').origin, session.origin);
    assert.equal(await video.getAttribute('controls'), '', 'the browser’s player controls');
    await session.page.waitForFunction(() => ((globalThis as unknown as BrowserWindow).document.querySelector('[data-testid=media] video')?.readyState ?? 0) >= 1, undefined, {
      timeout: 15_000,
    });
    const finished = await waitForGeneration(created.body.id, org.liveKey);
    assert.equal(((await session.page.getByTestId('charged').textContent()) ?? '').replace(/\D/g, ''), String(finished.charged_credits));
    await screenshot(session, 'generation-video');

    await go(session, `/generations/${speech.body.id}`);
    const audio = session.page.getByTestId('media').locator('audio');
    await audio.waitFor();
    assert.equal(new URL((await audio.getAttribute('src')) ?? '').origin, session.origin);
    await session.page.waitForFunction(() => ((globalThis as unknown as BrowserWindow).document.querySelector('[data-testid=media] audio')?.readyState ?? 0) >= 1, undefined, {
      timeout: 15_000,
    });
    await screenshot(session, 'generation-audio');
    await closeDashboard(session);
    await assertLedgerBalanced(org.id);
  });

  it('refreshes running rows of the list until they finish', async () => {
    const org = await createOrganization();
    const session = await openDashboard(browser());
    await signIn(session, org.liveKey);
    const created = await call('POST', '/v1/videos', { key: org.liveKey, body: slowVideo(4000) });
    assert.equal(created.status, 202);
    await go(session, '/generations');
    await waitForRows(session, [created.body.id]);
    const status = session.page.locator(`[data-generation-id="${created.body.id}"] [data-status]`);
    assert.ok(['queued', 'running'].includes((await status.getAttribute('data-status')) ?? ''), 'listed while it runs');
    await session.page.locator(`[data-generation-id="${created.body.id}"] [data-status=succeeded]`).waitFor({ timeout: 30_000 });
    await closeDashboard(session);
    await assertLedgerBalanced(org.id);
  });

  it('shows a chat answer as text, and a failed generation’s error code and message with nothing charged', async () => {
    const org = await createOrganization();
    const chat = await call('POST', '/v1/chat', { key: org.liveKey, body: { model: 'gpt-5-mini', messages: [{ content: 'say something' }] } });
    assert.equal(chat.body.status, 'succeeded', JSON.stringify(chat.body));
    const failed = await call('POST', '/v1/images', { key: org.liveKey, body: { model: 'flux-schnell', prompt: 'a broken one #fail' } });
    assert.equal(failed.body.status, 'failed');

    const session = await openDashboard(browser());
    await signIn(session, org.liveKey);
    await go(session, `/generations/${chat.body.id}`);
    const text = session.page.getByTestId('media').locator('pre.output');
    await text.waitFor();
    const answer = (await call('GET', `/v1/generations/${chat.body.id}`, { key: org.liveKey })).body.text as string;
    assert.ok(answer.length > 0);
    assert.equal(await text.textContent(), answer);

    await go(session, `/generations/${failed.body.id}`);
    const error = session.page.getByTestId('generation-error');
    await error.waitFor();
    const shown = (await error.textContent()) ?? '';
    assert.ok(shown.includes(failed.body.error_message), shown);
    assert.ok(shown.includes(`code ${failed.body.error_code}`), shown);
    assert.equal(((await session.page.getByTestId('charged').textContent()) ?? '').replace(/\D/g, ''), '0');
    await screenshot(session, 'generation-failed');
    await closeDashboard(session);
    await assertLedgerBalanced(org.id);
  });

  it('cancels a running job from its page: the page shows it canceled and the whole reservation refunded', async () => {
    const org = await createOrganization();
    const created = await call('POST', '/v1/videos', { key: org.liveKey, body: slowVideo(600_000) });
    assert.equal(created.status, 202);
    await waitFor(async () => (await call('GET', `/v1/generations/${created.body.id}`, { key: org.liveKey })).body.status === 'running');

    const session = await openDashboard(browser());
    await signIn(session, org.liveKey);
    await go(session, `/generations/${created.body.id}`);
    await session.page.locator('[data-testid=generation][data-status=running]').waitFor();
    await session.page.getByRole('button', { name: 'Cancel' }).click();
    await session.page.getByTestId('cancel-notice').waitFor();
    await session.page.locator('[data-testid=generation][data-status=canceled]').waitFor();
    assert.equal(await session.page.getByTestId('cancel').count(), 0, 'no Cancel once canceled');
    assert.equal(await session.page.getByTestId('progress').count(), 0);
    const refunded = ((await session.page.getByTestId('refunded').textContent()) ?? '').replace(/\D/g, '');
    assert.equal(refunded, String(created.body.reserved_credits));

    const after = await call('GET', `/v1/generations/${created.body.id}`, { key: org.liveKey });
    assert.equal(after.body.status, 'canceled');
    assert.equal(after.body.refunded_credits, created.body.reserved_credits);
    assert.deepEqual(await ledgerKinds(created.body.id), ['reserve', 'refund']);
    await screenshot(session, 'generation-canceled');
    await closeDashboard(session);
    assert.equal((await assertLedgerBalanced(org.id)).availableCredits, 100_000);
  });

  it('shows a viewer key a running job without a Cancel button, and the API refuses the viewer’s cancel (403)', async () => {
    const org = await createOrganization();
    const viewer = (await call('POST', '/v1/api-keys', { key: org.liveKey, body: { name: 'viewer', role: 'viewer' } })).body.secret as string;
    const created = await call('POST', '/v1/videos', { key: org.liveKey, body: slowVideo(600_000) });
    await waitFor(async () => (await call('GET', `/v1/generations/${created.body.id}`, { key: org.liveKey })).body.status === 'running');

    const session = await openDashboard(browser());
    await signIn(session, viewer);
    await go(session, `/generations/${created.body.id}`);
    await session.page.getByTestId('progress').waitFor();
    assert.equal(await session.page.getByRole('button', { name: 'Cancel' }).count(), 0, 'no Cancel for a viewer');
    const refused = await call('POST', `/v1/generations/${created.body.id}/cancel`, { key: viewer });
    assert.equal(refused.status, 403);
    assert.equal((await call('GET', `/v1/generations/${created.body.id}`, { key: org.liveKey })).body.status, 'running', 'the refusal changed nothing');
    await closeDashboard(session);

    assert.equal((await call('POST', `/v1/generations/${created.body.id}/cancel`, { key: org.liveKey })).status, 200);
    await assertLedgerBalanced(org.id);
  });

  it('is readable at 375 px wide: the list and a detail page fit the screen', async () => {
    const org = await createOrganization();
    const made = await call('POST', '/v1/images', { key: org.liveKey, body: { model: 'flux-schnell', prompt: 'a very long prompt that would widen a careless table '.repeat(3) } });
    const session = await openDashboard(browser(), { width: 375, height: 800 });
    await signIn(session, org.liveKey);
    const overflow = () =>
      session.page.evaluate(() => {
        const root = (globalThis as unknown as BrowserWindow).document.documentElement;
        return root.scrollWidth - root.clientWidth;
      });
    await go(session, '/generations');
    await waitForRows(session, [made.body.id]);
    assert.equal(await overflow(), 0, 'no horizontal scroll on the list');
    await screenshot(session, 'generations-phone');
    await go(session, `/generations/${made.body.id}`);
    await session.page.waitForFunction(() => ((globalThis as unknown as BrowserWindow).document.querySelector('[data-testid=media] img')?.naturalWidth ?? 0) > 0);
    assert.equal(await overflow(), 0, 'no horizontal scroll on the detail');
    await screenshot(session, 'generation-phone');
    await closeDashboard(session);
    await assertLedgerBalanced(org.id);
  });
});
