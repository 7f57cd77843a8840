import assert from 'node:assert/strict';
import sharp from 'sharp';
import { call, createOrganization, waitForGeneration } from '../helpers/http';
import { assertLedgerBalanced } from '../helpers/ledger';
import { closeDashboard, layoutShifts, openDashboard, reopen, screenshot, signIn, useDashboardBrowser, type DashboardSession } from './harness';
import { generate, shownEstimate } from './try-it-steps';

// Try it with an input image: a file uploaded through the API's upload flow from the form, or one
// of the organization's recent outputs, for an upscale (priced on the input's size: the estimate
// shown before sending must be what the API reserves), an image-to-video request, a transcription
// and a voice clone from a recent voice output; and an upload the API refuses shows the API's
// message, with nothing charged.

/** An output's address without its signature, which changes with each reading (it expires). */
const withoutSignature = (url: string) => url.split('?')[0];

interface BrowserImage {
  complete: boolean;
  naturalWidth: number;
  addEventListener(type: string, listener: () => void): void;
}

interface BrowserWindow {
  document: { documentElement: { scrollWidth: number; clientWidth: number } };
}

const FILE_LABEL = 'PNG, JPEG or WebP, 20 MB at most';

const png = (width: number, height: number, background = '#2a9d8f') =>
  sharp({ create: { width, height, channels: 3, background } })
    .png()
    .toBuffer();

/** Uploads `file` from the form's file input and waits for the field to say it is uploaded. */
async function uploadFromForm(session: DashboardSession, file: { name: string; mimeType: string; buffer: Buffer }): Promise<void> {
  const { page } = session;
  await page.getByLabel('Upload a file').check();
  await page.getByLabel(FILE_LABEL).setInputFiles(file);
  await page.getByTestId('try-input-status').getByText(`Uploaded ${file.name}`).waitFor();
}

/** The result's first image, once loaded: its natural width. */
async function renderedWidth(session: DashboardSession): Promise<number> {
  const image = session.page.getByTestId('try-result').locator('img').first();
  await image.evaluate(
    (img) => new Promise<void>((resolve) => ((img as unknown as BrowserImage).complete ? resolve() : (img as unknown as BrowserImage).addEventListener('load', resolve))),
  );
  return image.evaluate((img) => (img as unknown as BrowserImage).naturalWidth);
}

describe('dashboard: Try it with an input image', function () {
  this.timeout(120_000);
  const browser = useDashboardBrowser();

  it('offers a Pro organization no Studio+ model, saying why, and the API refuses one to it (402 plan_upgrade_required)', async () => {
    const org = await createOrganization({ plan: 'pro', credits: 100_000 });
    const session = await openDashboard(browser(), { hash: '/try/upscale' });
    await signIn(session, org.liveKey);
    const { page } = session;
    const models = page.getByLabel('Model');
    await models.waitFor();
    const offered = await models.locator('option').evaluateAll((options) => options.map((o) => (o as unknown as { value: string }).value));
    assert.ok(offered.length > 0 && !offered.includes('clarity-upscaler'), `offered: ${offered.join(', ')}`);
    assert.match((await page.getByTestId('plan-note').textContent()) ?? '', /Studio\+ model.*Studio and Team plans/);
    const image = await call('POST', '/v1/images', { key: org.liveKey, body: { model: 'flux-schnell', prompt: 'to upscale' } });
    const refused = await call('POST', '/v1/upscale', { key: org.liveKey, body: { model: 'clarity-upscaler', image_url: image.body.outputs[0].url } });
    assert.equal(refused.status, 402);
    assert.equal(refused.body.error.code, 'plan_upgrade_required');
    await closeDashboard(session);
    await assertLedgerBalanced(org.id);
  });

  it('upscales an image uploaded from a file: the estimate (from the file’s size) is what the API reserved, and the upscaled image renders at its size', async () => {
    // Studio: clarity-upscaler is a Studio-and-above model.
    const org = await createOrganization({ plan: 'studio', credits: 100_000 });
    const session = await openDashboard(browser(), { hash: '/try/upscale' });
    await signIn(session, org.liveKey);
    const { page } = session;
    await page.getByLabel('Model').selectOption('clarity-upscaler');
    assert.equal(await page.getByTestId('estimate-credits').count(), 0, 'no estimate before the input image is known');
    await page.getByRole('button', { name: 'Generate' }).click();
    await page.getByText('Choose the input image first').waitFor();
    assert.deepEqual((await call('GET', '/v1/generations', { key: org.liveKey })).body.data, [], 'nothing sent without the image');

    await uploadFromForm(session, { name: 'harbour.png', mimeType: 'image/png', buffer: await png(320, 200) });
    assert.match((await page.getByTestId('try-input-status').textContent()) ?? '', /320×200/, 'the size read from the file');
    await page.getByTestId('try-input-preview').waitFor();
    await page.getByLabel('Scale factor').selectOption('4');
    const estimate = await shownEstimate(session);
    // clarity-upscaler: 30 credits an output megapixel, 1280x800 out, Studio's ×1.6: not a figure by chance.
    assert.equal(estimate, 50);
    await screenshot(session, 'try-it-upscale-form');

    const id = await generate(session);
    const generation = (await call('GET', `/v1/generations/${id}`, { key: org.liveKey })).body;
    assert.equal(generation.modality, 'upscale');
    assert.equal(generation.reserved_credits, estimate, 'the estimate shown is what the API reserved');
    assert.equal(generation.outputs[0].width, 1280);
    assert.equal(await renderedWidth(session), generation.outputs[0].width, 'the upscaled image renders at its size');
    assert.equal((await page.getByTestId('try-charged').textContent())?.replace(/\D/g, ''), String(generation.charged_credits));
    assert.equal(await page.getByTestId('try-detail-link').getAttribute('href'), `#/generations/${id}`);
    await screenshot(session, 'try-it-upscale');
    await closeDashboard(session);
    await assertLedgerBalanced(org.id);
  });

  it('upscales one of the organization’s recent image outputs picked from the list: its signed URL is the input, the estimate is what the API reserved', async () => {
    const org = await createOrganization({ plan: 'pro', credits: 100_000 });
    const made = await call('POST', '/v1/images', { key: org.liveKey, body: { model: 'flux-schnell', prompt: `a red kite ${Date.now()}`, aspect_ratio: '16:9' } });
    assert.equal(made.status, 200, JSON.stringify(made.body));
    const source = made.body.outputs[0];
    const session = await openDashboard(browser(), { hash: '/try/upscale?model=real-esrgan' });
    await signIn(session, org.liveKey);
    const { page } = session;
    // By keyboard: the sources are a radio group (arrow keys), the list a labelled select.
    await page.getByLabel('Upload a file').focus();
    await page.keyboard.press('ArrowRight');
    assert.ok(await page.getByLabel('One of your recent outputs').isChecked(), 'the arrow key chose the other source');
    const list = page.getByLabel('A recent image of your organization');
    await list.locator(`option[value="${source.id}"]`).waitFor({ state: 'attached' });
    assert.match((await list.locator(`option[value="${source.id}"]`).textContent()) ?? '', /flux-schnell: a red kite .*\(1344×756\)/);
    await list.selectOption(source.id);
    await page.getByLabel('Scale factor').selectOption('2');
    const estimate = await shownEstimate(session);
    assert.ok(estimate > 0, 'a live key pays for a real provider');

    const id = await generate(session);
    const generation = (await call('GET', `/v1/generations/${id}`, { key: org.liveKey })).body;
    assert.equal(generation.reserved_credits, estimate, 'the estimate shown is what the API reserved');
    assert.equal(withoutSignature(generation.params.image_url), withoutSignature(source.url), 'the chosen output is the input');
    assert.deepEqual([generation.outputs[0].width, generation.outputs[0].height], [2688, 1512]);
    assert.equal(await renderedWidth(session), 2688);
    await closeDashboard(session);
    await assertLedgerBalanced(org.id);
  });

  it('sends an image-to-video request with an uploaded input image, the estimate shown being what the API reserved', async () => {
    const org = await createOrganization({ plan: 'pro', credits: 100_000 });
    const session = await openDashboard(browser(), { hash: '/try/video?model=kling-2.1-pro' });
    await signIn(session, org.liveKey);
    const { page } = session;
    await page.getByLabel('Prompt').fill(`the boat sails away ${Date.now()}`);
    await uploadFromForm(session, { name: 'boat.png', mimeType: 'image/png', buffer: await png(400, 300, '#e76f51') });
    const estimate = await shownEstimate(session);
    assert.ok(estimate > 0);

    const id = await generate(session);
    const generation = (await call('GET', `/v1/generations/${id}`, { key: org.liveKey })).body;
    assert.equal(generation.model, 'kling-2.1-pro');
    assert.equal(generation.reserved_credits, estimate, 'the estimate shown is what the API reserved');
    assert.match(generation.params.image_url, /\/files\/uploads\/org_[^/]+\/upl_[^/]+\/boat\.png\?/, 'the uploaded file is the input');
    assert.equal(await page.getByTestId('try-result').locator('video').count(), 1, 'the video is shown');
    await closeDashboard(session);
    await assertLedgerBalanced(org.id);
  });

  it('transcribes one of the organization’s recent music outputs (priced on its length), and speaks text in the voice of a recent voice output: each estimate is what the API reserved', async () => {
    const org = await createOrganization({ plan: 'pro', credits: 100_000 });
    const spoken = await call('POST', '/v1/voice', { key: org.liveKey, body: { model: 'eleven-flash-v2.5', text: `The tide comes in at noon ${Date.now()}.` } });
    assert.ok([200, 202].includes(spoken.status), JSON.stringify(spoken.body));
    const sample = (await waitForGeneration(spoken.body.id, org.liveKey)).outputs[0];
    assert.ok(sample.duration_s, 'the sample has a length');
    // A minute of music to transcribe: whisper-1 bills 6 credits a minute, so its length shows in the price.
    const played = await call('POST', '/v1/music', { key: org.liveKey, body: { model: 'minimax-music-v2', prompt: `a sea shanty ${Date.now()}`, duration_s: 60 } });
    assert.equal(played.status, 202, JSON.stringify(played.body));
    const song = (await waitForGeneration(played.body.id, org.liveKey)).outputs[0];
    const session = await openDashboard(browser(), { hash: '/try/voice?model=whisper-1' });
    await signIn(session, org.liveKey);
    const { page } = session;
    assert.equal(await page.getByLabel('Text to speak').count(), 0, 'a transcription takes no text');
    assert.equal(await page.getByLabel('Upload a file').count(), 0, 'uploads take images only');
    const list = page.getByLabel('A recent voice or music output of your organization');
    await list.locator(`option[value="${song.id}"]`).waitFor({ state: 'attached' });
    assert.match((await list.locator(`option[value="${song.id}"]`).textContent()) ?? '', /minimax-music-v2: a sea shanty .*\(60(\.0+)? s\)/);
    assert.equal(await page.getByTestId('estimate-credits').count(), 0, 'no estimate before the audio is known');
    await list.selectOption(song.id);
    const transcription = await shownEstimate(session);
    // 60 s at 6 credits a minute, Pro's ×1.6: 9.6, rounded up.
    assert.equal(transcription, 10);
    let id = await generate(session);
    let generation = (await call('GET', `/v1/generations/${id}`, { key: org.liveKey })).body;
    assert.equal(generation.params.operation, 'transcription');
    assert.equal(withoutSignature(generation.params.audio_url), withoutSignature(song.url), 'the chosen output is the input');
    assert.equal(generation.reserved_credits, transcription, 'the estimate shown (from the audio’s length) is what the API reserved');
    assert.ok(generation.text, 'a transcript');
    assert.equal(await page.getByTestId('try-result').locator('pre.output').textContent(), generation.text, 'the transcript is shown');

    await page.getByLabel('Model').selectOption('eleven-multilingual-v2');
    await page.getByLabel('Operation').selectOption('voice_clone');
    await page.getByLabel('Text to speak').fill(`Now in the sample’s voice ${Date.now()}`);
    const clone = page.getByLabel('A recent voice or music output of your organization');
    await clone.locator(`option[value="${sample.id}"]`).waitFor({ state: 'attached' });
    await clone.selectOption(sample.id);
    const cloned = await shownEstimate(session);
    id = await generate(session);
    generation = (await call('GET', `/v1/generations/${id}`, { key: org.liveKey })).body;
    assert.equal(generation.params.operation, 'voice_clone');
    assert.equal(withoutSignature(generation.params.audio_url), withoutSignature(sample.url));
    assert.equal(generation.reserved_credits, cloned, 'the estimate shown is what the API reserved');
    await page.getByTestId('try-result').locator('audio').waitFor();
    await closeDashboard(session);
    await assertLedgerBalanced(org.id);
  });

  it('shows the API’s message for a file type it refuses, at 375 px, and nothing is uploaded, sent or charged', async () => {
    const org = await createOrganization({ plan: 'pro', credits: 10_000 });
    const before = (await call('GET', '/v1/balance', { key: org.liveKey })).body;
    const session = await openDashboard(browser(), { hash: '/try/upscale', width: 375, height: 800 });
    await signIn(session, org.liveKey);
    const { page } = session;
    await reopen(session, '/try/upscale');
    await page.getByTestId('try-input-field').waitFor();
    const shifts = await layoutShifts(session);
    assert.ok(shifts.score < 0.1, `layout shift ${shifts.score} on load: ${shifts.moved.join('; ')}`);
    const gif = Buffer.from(
      'GIF89a\x01\x00\x01\x00\x80\x00\x00\x00\x00\x00\xff\xff\xff!\xf9\x04\x01\x00\x00\x00\x00,\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;',
      'latin1',
    );
    await page.getByLabel(FILE_LABEL).setInputFiles({ name: 'spinner.gif', mimeType: 'image/gif', buffer: gif });
    const alert = page.getByTestId('try-input-error').getByRole('alert');
    await alert.waitFor();
    const refused = await call('POST', '/v1/uploads', { key: org.liveKey, body: { filename: 'spinner.gif', content_type: 'image/gif', size_bytes: gif.length } });
    assert.equal(refused.status, 400);
    assert.ok(((await alert.textContent()) ?? '').includes(refused.body.error.message), 'the API’s own message');
    assert.match((await alert.textContent()) ?? '', /code validation_failed/);
    await page.getByRole('button', { name: 'Generate' }).click();
    await page.getByText('Choose the input image first').waitFor();
    assert.deepEqual((await call('GET', '/v1/balance', { key: org.liveKey })).body, before, 'nothing charged or reserved');
    assert.deepEqual((await call('GET', '/v1/generations', { key: org.liveKey })).body.data, [], 'no generation made');
    const overflow = await page.evaluate(() => {
      const root = (globalThis as unknown as BrowserWindow).document.documentElement;
      return root.scrollWidth - root.clientWidth;
    });
    assert.equal(overflow, 0, 'no horizontal scroll at 375 px');
    await screenshot(session, 'try-it-upscale-375');
    await closeDashboard(session);
    await assertLedgerBalanced(org.id);
  });
});
