import assert from 'node:assert/strict';
import { call, createOrganization } from '../helpers/http';
import { assertLedgerBalanced } from '../helpers/ledger';
import { closeDashboard, openDashboard, screenshot, signIn, useDashboardBrowser } from './harness';
import { generate, shownEstimate } from './try-it-steps';

// Try it: a request built from a model's form, its estimate shown before sending (the API's own
// pricing rule, so it equals what the API reserves), then the result rendered; and a request the
// API refuses shows the API's message, with nothing charged.

/** An output's address without its signature, which changes with each reading (it expires). */
const withoutSignature = (url: string) => url.split('?')[0];

interface BrowserWindow {
  document: { documentElement: { scrollWidth: number; clientWidth: number } };
}

interface BrowserImage {
  complete: boolean;
  naturalWidth: number;
}

describe('dashboard: Try it', function () {
  this.timeout(120_000);
  const browser = useDashboardBrowser();

  it('makes an image from the form: the estimate shown before sending is what the API reserved; the image renders, with the cost charged and a link to its page', async () => {
    const org = await createOrganization({ plan: 'pro', credits: 10_000 });
    const session = await openDashboard(browser(), { hash: '/try/image' });
    await signIn(session, org.liveKey);
    const { page } = session;
    await page.getByLabel('Model').selectOption('flux-dev');
    await page.getByLabel('Prompt').fill(`a lighthouse at dawn ${Date.now()}`);
    await page.getByLabel('Aspect ratio').selectOption('16:9');
    await page.getByLabel('Images').fill('2');
    const estimate = await shownEstimate(session);
    // flux-dev: 25 credits a megapixel, two 1344x756 images, Pro's ×1.6: 82, not a figure by chance.
    assert.equal(estimate, 82);
    await screenshot(session, 'try-it-form');

    const id = await generate(session);
    const generation = (await call('GET', `/v1/generations/${id}`, { key: org.liveKey })).body;
    assert.equal(generation.reserved_credits, estimate, 'the estimate shown is what the API reserved');
    assert.equal((await page.getByTestId('try-charged').textContent())?.replace(/\D/g, ''), String(generation.charged_credits));
    const images = page.getByTestId('try-result').locator('img');
    assert.equal(await images.count(), 2);
    for (let i = 0; i < 2; i++) {
      await images
        .nth(i)
        .evaluate((img) => new Promise<void>((resolve) => ((img as unknown as BrowserImage).complete ? resolve() : img.addEventListener('load', () => resolve()))));
      assert.ok(await images.nth(i).evaluate((img) => (img as unknown as BrowserImage).naturalWidth > 0), 'the image rendered');
    }
    assert.equal(await page.getByTestId('try-detail-link').getAttribute('href'), `#/generations/${id}`);
    await screenshot(session, 'try-it-result');
    await closeDashboard(session);
    await assertLedgerBalanced(org.id);
  });

  it('follows an async video to its end: the estimate shown is what the API reserved, and the video plays from the page', async () => {
    const org = await createOrganization({ plan: 'pro', credits: 100_000 });
    const session = await openDashboard(browser(), { hash: '/try/video' });
    await signIn(session, org.liveKey);
    const { page } = session;
    await page.getByLabel('Model').selectOption('hailuo-02');
    await page.getByLabel('Prompt').fill(`waves at dusk ${Date.now()}`);
    const durations = await page.getByLabel('Duration (s)').locator('option').allTextContents();
    await page.getByLabel('Duration (s)').selectOption(durations[durations.length - 1]!);
    const estimate = await shownEstimate(session);
    assert.ok(estimate > 0, 'a live key pays for a real provider');

    const id = await generate(session);
    const generation = (await call('GET', `/v1/generations/${id}`, { key: org.liveKey })).body;
    assert.equal(generation.reserved_credits, estimate, 'the estimate shown is what the API reserved');
    assert.equal(generation.params.duration_s, Number(durations[durations.length - 1]));
    const video = page.getByTestId('try-result').locator('video');
    assert.equal(withoutSignature((await video.getAttribute('src'))!), withoutSignature(generation.outputs[0].url), 'its own output');
    assert.equal((await page.getByTestId('try-charged').textContent())?.replace(/\D/g, ''), String(generation.charged_credits));
    await closeDashboard(session);
    await assertLedgerBalanced(org.id);
  });

  it('shows the API’s message for a prompt that is too long, and nothing is charged', async () => {
    const org = await createOrganization({ plan: 'pro', credits: 10_000 });
    const before = (await call('GET', '/v1/balance', { key: org.liveKey })).body;
    const session = await openDashboard(browser(), { hash: '/try/image', width: 375, height: 800, colorScheme: 'dark' });
    await signIn(session, org.liveKey);
    const { page } = session;
    await page.getByLabel('Prompt').fill('x'.repeat(4001));
    await page.getByRole('button', { name: 'Generate' }).click();
    const alert = page.getByTestId('try-error').getByRole('alert');
    await alert.waitFor();
    const refused = await call('POST', '/v1/images', { key: org.liveKey, body: { model: 'flux-schnell', prompt: 'x'.repeat(4001) } });
    assert.equal(refused.status, 400);
    assert.match((await alert.textContent()) ?? '', new RegExp(refused.body.error.message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')), 'the API’s own message');
    assert.match((await alert.textContent()) ?? '', /code validation_failed/);
    assert.deepEqual((await call('GET', '/v1/balance', { key: org.liveKey })).body, before, 'nothing charged or reserved');
    assert.deepEqual((await call('GET', '/v1/generations', { key: org.liveKey })).body.data, [], 'no generation made');
    const overflow = await page.evaluate(() => {
      const root = (globalThis as unknown as BrowserWindow).document.documentElement;
      return root.scrollWidth - root.clientWidth;
    });
    assert.equal(overflow, 0, 'no horizontal scroll at 375 px');
    await screenshot(session, 'try-it-error-375-dark');
    await closeDashboard(session, [/400/]);
    await assertLedgerBalanced(org.id);
  });

  it('shows a test key that simulated output reserves nothing, with the model’s price beside it, and the API reserves 0', async () => {
    const org = await createOrganization({ plan: 'pro', credits: 10_000 });
    const session = await openDashboard(browser(), { hash: '/try/image' });
    await signIn(session, org.testKey);
    const { page } = session;
    await page.getByLabel('Model').selectOption('flux-dev');
    await page.getByLabel('Prompt').fill(`a sandbox lighthouse ${Date.now()}`);
    assert.equal(await shownEstimate(session), 0);
    assert.match((await page.getByTestId('estimate').textContent()) ?? '', /simulated output is free, the model's price is 42 cr/);
    const id = await generate(session);
    assert.equal((await call('GET', `/v1/generations/${id}`, { key: org.testKey })).body.reserved_credits, 0);
    await closeDashboard(session);
    await assertLedgerBalanced(org.id);
  });

  it('sends every other text modality from its form as the API takes it, each reserving the estimate shown (music, voice, chat, 3D, avatar)', async () => {
    const org = await createOrganization({ plan: 'team', credits: 1_000_000 });
    const session = await openDashboard(browser(), { hash: '/try' });
    await signIn(session, org.liveKey);
    const { page } = session;
    for (const [modality, label] of [
      ['music', 'Prompt'],
      ['voice', 'Text to speak'],
      ['chat', 'Message'],
      ['3d', 'Prompt'],
      ['avatar', 'Text the avatar says'],
    ] as const) {
      await page
        .getByRole('navigation', { name: 'Modality' })
        .getByRole('link', { name: modality === '3d' ? '3D' : modality[0]!.toUpperCase() + modality.slice(1) })
        .click();
      await page.getByLabel(label, { exact: true }).fill(`a short ${modality} test ${Date.now()}`);
      const estimate = await shownEstimate(session);
      assert.ok(estimate > 0, `${modality}: a live key pays`);
      const id = await generate(session);
      const generation = (await call('GET', `/v1/generations/${id}`, { key: org.liveKey })).body;
      assert.equal(generation.modality, modality);
      assert.equal(generation.reserved_credits, estimate, `${modality}: the estimate shown is what the API reserved`);
    }
    await closeDashboard(session);
    await assertLedgerBalanced(org.id);
  });

  it('shows a viewer key no form to create with, and the API refuses its request anyway', async () => {
    const org = await createOrganization({ plan: 'pro', credits: 10_000 });
    const created = await call('POST', '/v1/api-keys', { key: org.liveKey, body: { name: 'viewer', role: 'viewer' } });
    const viewer = created.body.secret as string;
    const session = await openDashboard(browser(), { hash: '/try/image' });
    await signIn(session, viewer);
    const { page } = session;
    await page.getByText('This key may not create generations').waitFor();
    assert.equal(await page.getByTestId('try-form').count(), 0, 'no form');
    assert.equal(await page.getByRole('button', { name: 'Generate' }).count(), 0, 'no Generate button');
    const refused = await call('POST', '/v1/images', { key: viewer, body: { model: 'flux-schnell', prompt: 'a kite' } });
    assert.equal(refused.status, 403, 'and the API refuses it');
    await closeDashboard(session);
    await assertLedgerBalanced(org.id);
  });
});
