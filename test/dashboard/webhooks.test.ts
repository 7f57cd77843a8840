import assert from 'node:assert/strict';
import type { IncomingHttpHeaders } from 'node:http';
import type { Page } from 'playwright-core';
import { verifyWebhook } from '../../clients/typescript/src/webhook-verification';
import { call, createOrganization, waitFor } from '../helpers/http';
import { assertLedgerBalanced } from '../helpers/ledger';
import { stack } from '../helpers/stack';
import { startHttpsServer } from '../helpers/tls';
import { closeDashboard, go, openDashboard, screenshot, signIn, useDashboardBrowser } from './harness';

// Webhooks in the dashboard (#/webhooks, #/webhooks/<id>): an endpoint subscribed in the page with
// its secret shown once, a receiver failing until the delivery is exhausted (the test stack retries
// a second apart, six attempts, and allows private https receivers it trusts), the attempts shown,
// then a Replay clicked in the page delivered and verifiable with the secret the page showed; and a
// webhook disabled by its receiver's 410 Gone shown disabled with its reason, enabled again from its
// page, the button offered to no viewer.

interface Receipt {
  headers: IncomingHttpHeaders;
  body: string;
}

/** An https receiver answering `status()` to every request, keeping what it received. */
async function startReceiver(status: () => number) {
  const received: Receipt[] = [];
  const server = await startHttpsServer(stack().receiverCertificate, (req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      const code = status();
      res.writeHead(code).end(code >= 300 ? `receiver down (answer ${received.length})` : 'ok');
    });
  });
  return { url: `https://127.0.0.1:${server.port}/hook`, received, close: server.close };
}

interface BrowserWindow {
  document: { documentElement: { scrollWidth: number; clientWidth: number } };
}

const horizontalOverflow = () => {
  const root = (globalThis as unknown as BrowserWindow).document.documentElement;
  return root.scrollWidth - root.clientWidth;
};

const acceptNextDialog = (page: Page) => page.once('dialog', (dialog) => void dialog.accept());

describe('dashboard: webhooks', function () {
  this.timeout(120_000);
  const browser = useDashboardBrowser();

  it('subscribes an endpoint with its secret once, shows a delivery exhausted with its attempts, and replays it from the page: delivered and signed with that secret', async () => {
    const org = await createOrganization();
    let healthy = false;
    const receiver = await startReceiver(() => (healthy ? 200 : 500));
    try {
      const session = await openDashboard(browser(), { hash: '/webhooks' });
      const { page } = session;
      await signIn(session, org.liveKey);
      await page.getByText('No endpoints yet.').waitFor();
      await page.getByRole('button', { name: 'Add endpoint' }).click();
      await page.getByLabel('Endpoint URL').fill(receiver.url);
      await page.getByLabel('generation.completed').check();
      await page.getByLabel('Description').fill('order pipeline');
      await page.getByRole('button', { name: 'Add endpoint' }).click();
      const secret = ((await page.getByTestId('webhook-created').getByTestId('secret').textContent()) ?? '').trim();
      assert.match(secret, /^whsec_/);
      const [hook] = (await call('GET', '/v1/webhooks', { key: org.liveKey })).body.data;
      assert.deepEqual([hook.url, hook.events, hook.description], [receiver.url, ['generation.completed'], 'order pipeline']);
      await page.getByTestId(`webhook-${hook.id}`).waitFor();
      await screenshot(session, 'webhooks-list');

      // An event: a finished image. Its delivery fails at the receiver until the retries run out.
      const image = await call('POST', '/v1/images', { key: org.liveKey, body: { model: 'flux-schnell', prompt: 'a lighthouse' } });
      assert.ok([200, 202].includes(image.status), JSON.stringify(image.body));
      const first = await waitFor(async () => (await call('GET', `/v1/webhooks/${hook.id}/deliveries`, { key: org.liveKey })).body.data?.[0], 30_000, 'the delivery to start');
      await page.getByText('Open its delivery log').click();
      const row = page.getByTestId(`delivery-${first.id}`);
      // The page reads the log again while a delivery is in progress: no reload needed.
      await row.getByTestId('delivery-status').getByText('exhausted').waitFor({ timeout: 30_000 });
      await row.getByTestId('attempt-count').click();
      const attempts = row.getByTestId('attempt');
      assert.equal(await attempts.count(), 6);
      for (const text of await attempts.allTextContents()) assert.match(text, /500.*receiver down/s);
      assert.equal(receiver.received.length, 6);

      healthy = true;
      await row.getByRole('button', { name: 'Replay' }).click();
      const notice = page.getByTestId('replay-notice');
      await notice.getByTestId('delivery-status').getByText('succeeded').waitFor({ timeout: 20_000 });
      const replay = await call('GET', `/v1/webhooks/${hook.id}/deliveries`, { key: org.liveKey });
      const replayed = replay.body.data.find((d: { replay_of: string | null }) => d.replay_of === first.id);
      assert.equal(replayed.status, 'succeeded');
      await page.getByTestId(`delivery-${replayed.id}`).getByTestId('delivery-status').getByText('succeeded').waitFor();

      assert.equal(receiver.received.length, 7);
      const last = receiver.received[6]!;
      const event = verifyWebhook(last.body, String(last.headers['x-service-signature']), secret);
      assert.equal(event.type, 'generation.completed');
      assert.equal(event.id, first.event_id, 'the same event, sent again');
      await screenshot(session, 'webhook-deliveries');

      await page.setViewportSize({ width: 375, height: 800 });
      assert.equal(await page.evaluate(horizontalOverflow), 0, 'no horizontal scroll at 375 px');
      await screenshot(session, 'webhook-deliveries-phone');
      await closeDashboard(session);
      await assertLedgerBalanced(org.id);
    } finally {
      await receiver.close();
    }
  });

  it('rotates the secret (the new one shown once, the old one signing for a day) and deletes the endpoint', async () => {
    const org = await createOrganization();
    const hook = await call('POST', '/v1/webhooks', { key: org.liveKey, body: { url: 'https://127.0.0.1:9/hook', events: ['*'] } });
    assert.equal(hook.status, 201, JSON.stringify(hook.body));
    const session = await openDashboard(browser(), { hash: `/webhooks/${hook.body.id}` });
    const { page } = session;
    await signIn(session, org.liveKey);
    await page.getByText('No deliveries yet.').waitFor();

    acceptNextDialog(page);
    await page.getByRole('button', { name: 'Rotate secret' }).click();
    const secret = ((await page.getByTestId('secret').textContent()) ?? '').trim();
    assert.match(secret, /^whsec_/);
    assert.notEqual(secret, hook.body.secret);
    await page.getByText('the previous secret also signs until').waitFor();
    assert.ok((await call('GET', `/v1/webhooks/${hook.body.id}`, { key: org.liveKey })).body.previous_secret_expires_at);

    await go(session, '/webhooks');
    await page.getByRole('heading', { name: 'Webhooks', exact: true }).waitFor();
    await go(session, `/webhooks/${hook.body.id}`);
    await page.getByText('No deliveries yet.').waitFor();
    assert.equal(await page.getByTestId('secret').count(), 0, 'the new secret is gone after leaving');
    assert.ok(!(await page.content()).includes(secret));

    acceptNextDialog(page);
    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByText('No endpoints yet.').waitFor();
    assert.equal((await call('GET', `/v1/webhooks/${hook.body.id}`, { key: org.liveKey })).status, 404);
    await closeDashboard(session);
  });

  it('shows a webhook its receiver disabled with 410 Gone, disabled with the reason, and Enable re-enables it; a viewer is offered no Enable', async () => {
    const org = await createOrganization();
    let gone = true;
    const receiver = await startReceiver(() => (gone ? 410 : 200));
    try {
      const created = await call('POST', '/v1/webhooks', { key: org.liveKey, body: { url: receiver.url, events: ['generation.completed'], description: 'gone soon' } });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const hook = created.body.id as string;
      const image = await call('POST', '/v1/images', { key: org.liveKey, body: { model: 'flux-schnell', prompt: 'a closed door' } });
      assert.ok([200, 202].includes(image.status), JSON.stringify(image.body));
      const disabled = await waitFor(
        async () => {
          const shown = (await call('GET', `/v1/webhooks/${hook}`, { key: org.liveKey })).body;
          return shown.status === 'disabled' ? shown : undefined;
        },
        30_000,
        'the webhook to be disabled by the 410',
      );
      assert.match(disabled.disabled_reason, /410 Gone/);

      const session = await openDashboard(browser(), { hash: '/webhooks' });
      const { page } = session;
      await signIn(session, org.liveKey);
      const row = page.getByTestId(`webhook-${hook}`);
      await row.getByTestId('webhook-status').getByText('disabled', { exact: true }).waitFor();
      assert.match((await row.textContent()) ?? '', /failing since/);
      // The event-type picker offers the operational events.
      await page.getByRole('button', { name: 'Add endpoint' }).click();
      for (const type of ['webhook.endpoint_disabled', 'webhook.delivery_exhausted']) await page.getByLabel(type).waitFor();
      await screenshot(session, 'webhooks-list-disabled');

      await go(session, `/webhooks/${hook}`);
      const health = page.getByTestId('webhook-health');
      await health.getByTestId('webhook-status').getByText('disabled', { exact: true }).waitFor();
      assert.equal(((await health.getByTestId('webhook-disabled-reason').textContent()) ?? '').replace(/^Reason:\s*/, ''), disabled.disabled_reason);
      assert.notEqual(((await health.getByTestId('webhook-failing-since').textContent()) ?? '').trim(), '—');
      assert.equal(((await health.getByTestId('webhook-last-success').textContent()) ?? '').trim(), '—', 'it never accepted a delivery');
      await screenshot(session, 'webhook-disabled');

      gone = false;
      await health.getByRole('button', { name: 'Enable' }).click();
      await health.getByTestId('webhook-status').getByText('enabled', { exact: true }).waitFor();
      assert.equal(await health.getByRole('button', { name: 'Enable' }).count(), 0, 'no Enable on an enabled webhook');
      assert.equal(await health.getByTestId('webhook-disabled-reason').count(), 0);
      const enabled = (await call('GET', `/v1/webhooks/${hook}`, { key: org.liveKey })).body;
      assert.deepEqual([enabled.status, enabled.disabled_reason, enabled.failing_since], ['enabled', null, null]);
      await closeDashboard(session);

      // Enabled again through the page: the next event is delivered.
      const before = receiver.received.length;
      await call('POST', '/v1/images', { key: org.liveKey, body: { model: 'flux-schnell', prompt: 'an open door' } });
      await waitFor(async () => receiver.received.length > before, 30_000, 'a delivery after enabling');

      // A viewer key: the webhook's page is not offered, nor its Enable.
      const viewer = (await call('POST', '/v1/api-keys', { key: org.liveKey, body: { name: 'viewer', role: 'viewer' } })).body.secret as string;
      const again = await call('PATCH', `/v1/webhooks/${hook}`, { key: viewer, body: { status: 'enabled' } });
      assert.equal(again.status, 403, 'the API refuses a viewer the same call');
      const viewing = await openDashboard(browser(), { hash: `/webhooks/${hook}` });
      await signIn(viewing, viewer);
      await viewing.page.getByText('This key may not open Webhooks').waitFor();
      assert.equal(await viewing.page.getByRole('button', { name: 'Enable' }).count(), 0);
      await closeDashboard(viewing);
      await assertLedgerBalanced(org.id);
    } finally {
      await receiver.close();
    }
  });
});
