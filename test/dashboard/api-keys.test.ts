import assert from 'node:assert/strict';
import type { Browser, Locator, Page } from 'playwright-core';
import { call, createOrganization } from '../helpers/http';
import { closeDashboard, go, openDashboard, screenshot, signIn, useDashboardBrowser, type DashboardSession } from './harness';

// API keys in the dashboard (#/keys): created with the secret shown once (and working), edited,
// rotated and revoked through the page, with the API confirming each; and a viewer key, which may
// open none of the management views, refused by the API as well.

interface BrowserWindow {
  document: { documentElement: { scrollWidth: number; clientWidth: number } };
}

const horizontalOverflow = () => {
  const root = (globalThis as unknown as BrowserWindow).document.documentElement;
  return root.scrollWidth - root.clientWidth;
};

/** Accepts the next confirmation dialog (revoke, delete) as a person clicking OK. */
const acceptNextDialog = (page: Page) => page.once('dialog', (dialog) => void dialog.accept());

const keyRow = (session: DashboardSession, id: string): Locator => session.page.getByTestId(`key-${id}`);

async function openKeys(browser: Browser, secret: string, options: { width?: number } = {}) {
  // Opened at #/keys, so the view is there once signed in (no hash change racing the shell's first render).
  const session = await openDashboard(browser, { ...options, hash: '/keys' });
  await signIn(session, secret);
  await session.page.getByRole('heading', { name: 'API keys' }).waitFor();
  await session.page.locator('table').waitFor();
  return session;
}

describe('dashboard: API keys', function () {
  this.timeout(120_000);
  const browser = useDashboardBrowser();

  it('creates a key with its secret shown once: the secret works, the list keeps only its prefix, and once revoked the API refuses it', async () => {
    const org = await createOrganization();
    const session = await openKeys(browser(), org.liveKey);
    const { page } = session;
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByLabel('Name').fill('deploy bot');
    await page.getByLabel('Role').selectOption('developer');
    await page.getByLabel('images:write').check();
    await page.getByLabel('generations:read').check();
    await page.getByLabel('Monthly budget (USD)').fill('25');
    await page.getByText('IP allowlists are an Enterprise feature').waitFor();
    await page.getByRole('button', { name: 'Create key' }).click();

    const secret = ((await page.getByTestId('key-created').getByTestId('secret').textContent()) ?? '').trim();
    assert.match(secret, /^sk_live_/);
    const current = await call('GET', '/v1/api-keys/current', { key: secret });
    assert.equal(current.status, 200, 'the secret shown works');
    assert.deepEqual(
      [current.body.name, current.body.role, current.body.scopes, current.body.monthly_budget_usd],
      ['deploy bot', 'developer', ['images:write', 'generations:read'], 25],
    );
    const row = keyRow(session, current.body.id);
    await row.waitFor();
    assert.match((await row.textContent()) ?? '', /deploy bot.*live.*developer.*images:write.*generations:read.*\$0\.00 of \$25\.00/s);
    await screenshot(session, 'keys-created');

    // Leaving the view forgets the secret; the list shows the prefix only.
    await go(session, '/');
    await page.getByRole('navigation', { name: 'Sections' }).locator('[aria-current=page]', { hasText: 'Overview' }).waitFor();
    await go(session, '/keys');
    await row.waitFor();
    assert.equal(await page.getByTestId('key-created').count(), 0, 'the secret panel is gone');
    assert.ok(!(await page.content()).includes(secret), 'the secret is nowhere on the page');
    assert.equal(((await row.getByTestId('key-prefix').textContent()) ?? '').replace('…', ''), current.body.prefix);
    assert.ok(secret.startsWith(current.body.prefix));
    await screenshot(session, 'keys-list');

    acceptNextDialog(page);
    await row.getByRole('button', { name: 'Revoke' }).click();
    await row.getByText('revoked').waitFor();
    assert.equal((await call('GET', '/v1/api-keys/current', { key: secret })).status, 401, 'the API refuses the revoked key');
    await closeDashboard(session);
  });

  it('rotates a key: a replacement with the same settings and its secret once, and the old key revoked only when confirmed', async () => {
    const org = await createOrganization();
    const old = await call('POST', '/v1/api-keys', { key: org.liveKey, body: { name: 'worker', role: 'developer', scopes: ['chat:write'], monthly_budget_usd: 12.5 } });
    assert.equal(old.status, 201);
    const session = await openKeys(browser(), org.liveKey);
    const { page } = session;
    await keyRow(session, old.body.id).getByRole('button', { name: 'Rotate' }).click();
    const panel = page.getByTestId('key-rotated');
    const secret = ((await panel.getByTestId('secret').textContent()) ?? '').trim();
    const replacement = await call('GET', '/v1/api-keys/current', { key: secret });
    assert.equal(replacement.status, 200);
    assert.notEqual(replacement.body.id, old.body.id);
    assert.deepEqual(
      [replacement.body.name, replacement.body.role, replacement.body.scopes, replacement.body.monthly_budget_usd],
      ['worker', 'developer', ['chat:write'], 12.5],
      'the same settings',
    );
    assert.equal((await call('GET', '/v1/api-keys/current', { key: old.body.secret })).status, 200, 'the old key works until the person confirms');

    acceptNextDialog(page);
    await panel.getByRole('button', { name: 'Revoke the old key' }).click();
    await panel.getByText(/The old key .* is revoked/).waitFor();
    assert.equal((await call('GET', '/v1/api-keys/current', { key: old.body.secret })).status, 401, 'the old key is refused');
    assert.equal((await call('GET', '/v1/api-keys/current', { key: secret })).status, 200, 'the replacement works');
    await keyRow(session, old.body.id).getByText('revoked').waitFor();
    await closeDashboard(session);
  });

  it('edits a key’s name, budget and, for an Enterprise organization, its IP allowlist (PATCH), showing the API’s refusal of a bad range', async () => {
    const org = await createOrganization({ enterprise: true });
    const key = await call('POST', '/v1/api-keys', { key: org.liveKey, body: { name: 'ci' } });
    const session = await openKeys(browser(), org.liveKey);
    const row = keyRow(session, key.body.id);
    await row.getByRole('button', { name: 'Edit' }).click();
    const form = session.page.getByRole('form', { name: 'Edit ci' });
    await form.getByLabel('Name').fill('ci (nightly)');
    await form.getByLabel('Monthly budget (USD)').fill('40');
    await form.getByLabel('IP allowlist').fill('203.0.113.0/24\nnot-a-range');
    await form.getByRole('button', { name: 'Save' }).click();
    const alert = form.getByRole('alert');
    await alert.waitFor();
    assert.match((await alert.textContent()) ?? '', /not-a-range.*is not a CIDR range/);

    await form.getByLabel('IP allowlist').fill('203.0.113.0/24');
    await form.getByRole('button', { name: 'Save' }).click();
    await form.waitFor({ state: 'detached' });
    await row.getByText('from 203.0.113.0/24').waitFor();
    const listed = (await call('GET', '/v1/api-keys', { key: org.liveKey })).body.data.find((k: { id: string }) => k.id === key.body.id);
    assert.deepEqual([listed.name, listed.monthly_budget_usd, listed.ip_allowlist], ['ci (nightly)', 40, ['203.0.113.0/24']]);
    assert.match((await row.textContent()) ?? '', /ci \(nightly\).*\$0\.00 of \$40\.00/s);
    await closeDashboard(session);
  });

  it('offers a viewer key no keys, users or webhooks to manage, and the API refuses it the same calls (403)', async () => {
    const org = await createOrganization();
    const viewer = (await call('POST', '/v1/api-keys', { key: org.liveKey, body: { name: 'viewer', role: 'viewer' } })).body.secret as string;
    const session = await openDashboard(browser(), { hash: '/keys' });
    await signIn(session, viewer);
    for (const [hash, title] of [
      ['/keys', 'API keys'],
      ['/users', 'Users'],
      ['/webhooks', 'Webhooks'],
    ] as const) {
      await go(session, hash);
      await session.page.getByText(`This key may not open ${title}`).waitFor();
      for (const name of ['Create key', 'Invite user', 'Add endpoint']) assert.equal(await session.page.getByRole('button', { name }).count(), 0, `${name} on ${hash}`);
    }
    const refused = await Promise.all([
      call('POST', '/v1/api-keys', { key: viewer, body: { name: 'mine' } }),
      call('POST', '/v1/users', { key: viewer, body: { email: 'someone@example.com', role: 'viewer' } }),
      call('POST', '/v1/webhooks', { key: viewer, body: { url: 'https://93.184.216.34/hook', events: ['*'] } }),
    ]);
    assert.deepEqual(
      refused.map((r) => r.status),
      [403, 403, 403],
    );
    await closeDashboard(session);
  });

  it('pages through the keys 20 at a time, Next and Previous', async () => {
    const org = await createOrganization();
    // The owner's live key and 20 more: 21 live keys, the owner's the oldest.
    for (let i = 1; i <= 20; i++) assert.equal((await call('POST', '/v1/api-keys', { key: org.liveKey, body: { name: `key ${i}` } })).status, 201);
    const session = await openKeys(browser(), org.liveKey);
    const rows = session.page.locator('tbody > tr');
    assert.equal(await rows.count(), 20);
    assert.equal(await session.page.locator('tbody').getByText('Owner live key').count(), 0, 'the oldest key is on the next page');
    await session.page.getByRole('button', { name: 'Next →' }).click();
    await session.page.locator('tbody').getByText('Owner live key').waitFor();
    assert.equal(await rows.count(), 1);
    assert.ok(await session.page.getByRole('button', { name: 'Next →' }).isDisabled(), 'no page after the last');
    await session.page.getByRole('button', { name: '← Previous' }).click();
    await session.page.getByText('key 20', { exact: true }).waitFor();
    assert.equal(await rows.count(), 20);
    await closeDashboard(session);
  });

  it('is readable at 375 px wide: the key list scrolls inside its table, not the page', async () => {
    const org = await createOrganization();
    await call('POST', '/v1/api-keys', {
      key: org.liveKey,
      body: { name: 'a key with a rather long name for a phone screen', scopes: ['images:write', 'usage:read'], monthly_budget_usd: 5 },
    });
    const session = await openKeys(browser(), org.liveKey, { width: 375 });
    assert.equal(await session.page.evaluate(horizontalOverflow), 0, 'no horizontal scroll of the page');
    await screenshot(session, 'keys-phone');
    await closeDashboard(session);
  });
});
