import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { call, createOrganization } from '../helpers/http';
import { closeDashboard, openDashboard, screenshot, signIn, useDashboardBrowser } from './harness';

// Users in the dashboard (#/users): inviting, changing a role and deactivating through the page,
// with the API confirming each, and the API's own refusals shown (the last owner stays; a test key
// lists users but may not change them).

const acceptNextDialog = (page: Page) => page.once('dialog', (dialog) => void dialog.accept());

interface ListedUser {
  id: string;
  email: string | null;
  role: string;
  deactivated_at: string | null;
}

const usersOf = async (key: string): Promise<ListedUser[]> => (await call('GET', '/v1/users', { key })).body.data;

describe('dashboard: users', function () {
  this.timeout(120_000);
  const browser = useDashboardBrowser();

  it('invites a user, changes their role and deactivates them; refuses to deactivate the last owner with the API’s message', async () => {
    const org = await createOrganization();
    const session = await openDashboard(browser(), { hash: '/users' });
    const { page } = session;
    await signIn(session, org.liveKey);
    await page.locator('table').waitFor();

    await page.getByRole('button', { name: 'Invite user' }).click();
    await page.getByLabel('Name').fill('Ada Lovelace');
    await page.getByLabel('Email').fill('ada@example.com');
    await page.getByLabel('Role', { exact: true }).selectOption('developer');
    await page.getByRole('button', { name: 'Invite', exact: true }).click();
    await page.getByText('Ada Lovelace (ada@example.com) was added as developer').waitFor();
    const invited = (await usersOf(org.liveKey)).find((u) => u.email === 'ada@example.com');
    assert.equal(invited?.role, 'developer', 'the API has the invited user');
    const row = page.getByTestId(`user-${invited.id}`);
    await row.waitFor();

    await row.getByLabel('Role of Ada Lovelace').selectOption('admin');
    await row.getByRole('button', { name: 'Change role' }).click();
    // Saved: the list is read again and the chosen role is the user's, so the button rests.
    await row.locator('button:disabled', { hasText: 'Change role' }).waitFor();
    assert.equal((await usersOf(org.liveKey)).find((u) => u.id === invited.id)?.role, 'admin');
    await screenshot(session, 'users');

    const owner = (await usersOf(org.liveKey)).find((u) => u.role === 'owner')!;
    const ownerRow = page.getByTestId(`user-${owner.id}`);
    acceptNextDialog(page);
    await ownerRow.getByRole('button', { name: 'Deactivate' }).click();
    const refusal = ownerRow.getByRole('alert');
    await refusal.waitFor();
    assert.match((await refusal.textContent()) ?? '', /last active owner.*make another user owner first.*code last_owner/s);

    acceptNextDialog(page);
    await row.getByRole('button', { name: 'Deactivate' }).click();
    await row.getByText('deactivated').waitFor();
    assert.ok((await usersOf(org.liveKey)).find((u) => u.id === invited.id)?.deactivated_at, 'the API has them deactivated');
    await closeDashboard(session);
  });

  it('lets a test key list users but offers no change, as the API refuses it', async () => {
    const org = await createOrganization();
    const session = await openDashboard(browser(), { hash: '/users' });
    await signIn(session, org.testKey);
    await session.page.locator('table').waitFor();
    await session.page.getByText('sign in with a live key to change them').waitFor();
    assert.equal(await session.page.getByRole('button', { name: 'Invite user' }).count(), 0);
    assert.equal(await session.page.getByRole('button', { name: 'Deactivate' }).count(), 0);
    const refused = await call('POST', '/v1/users', { key: org.testKey, body: { email: 'tester@example.com', role: 'viewer' } });
    assert.deepEqual([refused.status, refused.body.error.code], [403, 'insufficient_role']);
    await closeDashboard(session);
  });

  it('offers an admin key no owner role to grant and no change to the owner, as the API refuses both', async () => {
    const org = await createOrganization();
    const admin = (await call('POST', '/v1/api-keys', { key: org.liveKey, body: { name: 'admin', role: 'admin' } })).body.secret as string;
    const session = await openDashboard(browser(), { hash: '/users' });
    const { page } = session;
    await signIn(session, admin);
    await page.locator('table').waitFor();
    const owner = (await usersOf(org.liveKey)).find((u) => u.role === 'owner')!;
    const ownerRow = page.getByTestId(`user-${owner.id}`);
    await ownerRow.waitFor();
    assert.equal(await ownerRow.getByRole('button').count(), 0, 'no action on a user ranking above the key');
    await page.getByRole('button', { name: 'Invite user' }).click();
    const offered = await page.getByLabel('Role', { exact: true }).locator('option').allTextContents();
    assert.deepEqual(offered, ['viewer', 'developer', 'admin']);
    const refused = await Promise.all([
      call('POST', '/v1/users', { key: admin, body: { email: 'boss@example.com', role: 'owner' } }),
      call('DELETE', `/v1/users/${owner.id}`, { key: admin }),
    ]);
    assert.deepEqual(
      refused.map((r) => [r.status, r.body.error.code]),
      [
        [403, 'insufficient_role'],
        [403, 'insufficient_role'],
      ],
    );
    await closeDashboard(session);
  });
});
