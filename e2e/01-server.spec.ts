/** The real server answers in a real browser: the status page renders the database health. */
import { expect, test } from '@playwright/test';

test('the status page shows the service and its database as healthy', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: 'Payframe' })).toBeVisible();
  await expect(page.getByTestId('health')).toContainText('Service: ok');
  await expect(page.getByTestId('health')).toContainText('Database (pglite): ok');
  // The page runs under a CSP without inline script; a violation would show up as a console error.
  expect(errors).toEqual([]);
});

test('health answers JSON with the database status', async ({ request }) => {
  const res = await request.get('/healthz');
  expect(res.status()).toBe(200);
  expect(await res.json()).toMatchObject({ status: 'ok', database: { kind: 'pglite', status: 'ok' } });
});
