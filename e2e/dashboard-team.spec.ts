/**
 * The dashboard's Team in Chromium (issue 16 "Team"; docs/dashboard.md "Team"): an owner invites a
 * user by e-mail (the link read from the dev outbox), the invitee accepts it in a browser of its
 * own, signs in and enrols its second factor; the owner changes the invitee's role, disables it (its
 * open session ends on its next action, and its sign-in is refused), enables it again and resets
 * its second factor (it enrols again); demoting the last owner is refused with a clear message.
 * axe, the keyboard alone and 320 px on the Team page and the invitation page. The server is this
 * spec's own (e2e/helpers/dashboard.ts).
 */
import { type APIRequestContext, expect, type Locator, type Page, test } from '@playwright/test';
import {
  type DashboardServer,
  type DashboardUser,
  enrol,
  expectAccessible,
  expectNoSidewaysScroll,
  fillSignIn,
  startDashboardServer,
} from './helpers/dashboard.ts';

const PORT = Number(process.env.E2E_PORT ?? 3100) + 102;
let server: DashboardServer;
let owner: Page;
const invitee: DashboardUser = { username: 'ivy.invited', password: 'Invited-user-2026' };
const INVITEE_EMAIL = 'ivy.invited@example.com';

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ browser }) => {
  test.setTimeout(120_000);
  server = await startDashboardServer(PORT, ['owner']);
  owner = await (await browser.newContext()).newPage();
  await enrol(owner, server, server.users.owner!);
});
test.afterAll(async () => {
  await owner?.context().close();
  await server?.stop();
});

/** Tab until `target` has focus (reachable by keyboard, in the page's order). */
async function tabTo(page: Page, target: Locator, max = 60): Promise<void> {
  for (let i = 0; i < max; i++) {
    if (await target.evaluate((el) => el === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  await expect(target).toBeFocused();
}

/** The invitation link's token in the newest e-mail to `to` (GET /dev/outbox). */
async function invitationToken(request: APIRequestContext, to: string): Promise<string> {
  let token: string | undefined;
  await expect
    .poll(async () => {
      const res = await request.get(`${server.base}/dev/outbox?to=${encodeURIComponent(to)}`);
      const { messages } = (await res.json()) as { messages: { text: string }[] };
      token = /\/dashboard\/invite#(iv_[A-Za-z0-9_-]{43})/.exec(messages[0]?.text ?? '')?.[1];
      return token;
    })
    .toBeTruthy();
  return token!;
}

const userRow = (page: Page, username: string) =>
  page
    .getByTestId('team-user')
    .filter({ has: page.getByTestId('team-user-name').getByText(username, { exact: true }) });

async function openTeam(page: Page): Promise<void> {
  await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Team' }).click();
  await expect(page.getByRole('heading', { name: 'Team', level: 1 })).toBeVisible();
}

test('an owner invites by e-mail, by keyboard alone; the page passes axe and fits 320 px', async () => {
  await openTeam(owner);
  await expect(userRow(owner, server.users.owner!.username)).toContainText('Owner');
  await tabTo(owner, owner.getByLabel('E-mail address'));
  await owner.keyboard.type(INVITEE_EMAIL);
  await owner.keyboard.press('Tab');
  await expect(owner.getByLabel('Role', { exact: true })).toBeFocused();
  await owner.keyboard.press('ArrowUp'); // Viewer → Staff
  await expect(owner.getByLabel('Role', { exact: true })).toHaveValue('Staff');
  await owner.keyboard.press('Tab');
  await owner.keyboard.press('Enter');
  await expect(owner.getByTestId('team-result')).toHaveText(`Invitation sent to ${INVITEE_EMAIL}.`);
  await expect(owner.getByTestId('team-invitation')).toContainText(INVITEE_EMAIL);
  await expect(owner.getByTestId('team-invitation')).toContainText('Staff');
  await expectAccessible(owner);
  await expectNoSidewaysScroll(owner);
});

test('the invitee accepts the link once, signs in and enrols its second factor', async ({ browser }) => {
  test.setTimeout(90_000);
  const token = await invitationToken(owner.request, INVITEE_EMAIL);
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${server.base}/dashboard/invite#${token}`);
  await expect(page.getByRole('heading', { name: 'Join your team', level: 1 })).toBeVisible();
  await expect(page.getByTestId('invitation-intro')).toContainText('as Staff');
  await expectAccessible(page);
  await expectNoSidewaysScroll(page);
  // Two passwords that differ are caught before anything is sent.
  await page.getByLabel('Choose a user name').fill(invitee.username);
  await page.getByLabel('Choose a password').fill(invitee.password);
  await page.getByLabel('Type the password again').fill('something else 1');
  await page.getByRole('button', { name: 'Create my user' }).click();
  await expect(page.getByText('The two passwords differ.')).toBeVisible();
  await page.getByLabel('Type the password again').fill(invitee.password);
  await page.getByRole('button', { name: 'Create my user' }).click();
  await expect(page.getByTestId('invitation-accepted')).toContainText('Your user is ready.');
  // The link works once (opened afresh: the same address would only move to its fragment).
  await page.goto('about:blank');
  await page.goto(`${server.base}/dashboard/invite#${token}`);
  await expect(page.getByTestId('invitation-unusable')).toBeVisible();
  await enrol(page, server, invitee);
  await context.close();

  await owner.reload();
  await expect(userRow(owner, invitee.username)).toContainText('Staff');
  await expect(userRow(owner, invitee.username).getByTestId('team-user-2fa')).toHaveText('Set up');
  await expect(owner.getByTestId('team-invitation')).toHaveCount(0);
});

test('the owner changes the role and disables, each asked first', async () => {
  // A role change, asked first.
  await owner.getByRole('button', { name: `Change the role of ${invitee.username}` }).click();
  await owner.getByLabel(`New role for ${invitee.username}`).selectOption('Viewer');
  await owner.getByRole('button', { name: 'Confirm role' }).click();
  await expect(owner.getByTestId('team-result')).toHaveText(`${invitee.username} is now Viewer.`);
  await expect(userRow(owner, invitee.username).getByTestId('team-user-role')).toHaveText('Viewer');

  // Disable, by keyboard alone.
  await tabTo(owner, owner.getByRole('button', { name: `Disable ${invitee.username}` }));
  await owner.keyboard.press('Enter');
  await expect(owner.getByRole('button', { name: 'Confirm disable' })).toBeFocused();
  await expectAccessible(owner);
  await owner.keyboard.press('Enter');
  await expect(owner.getByTestId('team-result')).toHaveText(`${invitee.username} is disabled.`);
  await expect(userRow(owner, invitee.username).getByTestId('team-user-status')).toHaveText('Disabled');
});

test('a disabled user: its open session ends on its next action, and its sign-in is refused', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  // Enabled again, the invitee signs in (with its authenticator) and keeps a page open.
  await owner.getByRole('button', { name: `Enable ${invitee.username}` }).click();
  await owner.getByRole('button', { name: 'Confirm enable' }).click();
  await expect(owner.getByTestId('team-result')).toHaveText(`${invitee.username} is enabled.`);

  const context = await browser.newContext();
  const page = await context.newPage();
  // Its second factor is reset first, so this test signs in with a key of its own.
  await owner.getByRole('button', { name: `Reset the second factor of ${invitee.username}` }).click();
  await expect(
    owner.getByText(`Reset the second factor of ${invitee.username}?`, { exact: false }),
  ).toBeVisible();
  await owner.getByRole('button', { name: 'Confirm reset' }).click();
  await expect(owner.getByTestId('team-result')).toHaveText(
    `The second factor of ${invitee.username} is reset.`,
  );
  await expect(userRow(owner, invitee.username).getByTestId('team-user-2fa')).toHaveText('Not set up');
  // It enrols again at its next sign-in.
  await enrol(page, server, invitee);

  await owner.getByRole('button', { name: `Disable ${invitee.username}` }).click();
  await owner.getByRole('button', { name: 'Confirm disable' }).click();
  await expect(owner.getByTestId('team-result')).toHaveText(`${invitee.username} is disabled.`);

  await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Payments' }).click();
  await expect(page.getByRole('heading', { name: 'Sign in', level: 1 })).toBeVisible();
  await fillSignIn(page, invitee);
  await expect(page.getByTestId('sign-in-error')).toContainText('not right');
  await context.close();
});

test('demoting the last owner is refused with a clear message', async () => {
  const me = server.users.owner!.username;
  await owner.getByRole('button', { name: `Change the role of ${me}` }).click();
  await owner.getByLabel(`New role for ${me}`).selectOption('Admin');
  await owner.getByRole('button', { name: 'Confirm role' }).click();
  await expect(owner.getByTestId('team-result')).toContainText('last Owner');
  await expect(userRow(owner, me).getByTestId('team-user-role')).toHaveText('Owner');
  // No Disable for oneself.
  await expect(owner.getByRole('button', { name: `Disable ${me}` })).toHaveCount(0);
  await expectAccessible(owner);
});
