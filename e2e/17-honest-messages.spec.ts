/**
 * What the page says is true. Each decline family has its own message, in English and Spanish: a
 * decline that concerns one field (an expired card, an incorrect CVC) is said at that field, which
 * is marked and gets the focus; the others beside Pay, where the shopper is. An ACH payment is
 * "submitted", with the bank's timeline, never "successful" (no card, no approval code); a canceled
 * session asks for nothing ("Amount due" is gone).
 */
import { expect, type Page, test } from '@playwright/test';
import { createSession, futureExpiry, merchantView } from './helpers/checkout.ts';

async function payCard(
  page: Page,
  number: string,
  labels = { number: 'Card number', exp: 'Expiration date', cvv: 'Security code' },
) {
  await page.getByLabel(labels.number).fill(number);
  await page.getByLabel(labels.exp).fill(futureExpiry());
  await page.getByLabel(labels.cvv).fill('123');
  await page.getByRole('button', { name: /^(Pay|Pagar)/ }).click();
}

/** [family, card, English, Spanish, the field it concerns (its input's id) or null] */
const FAMILIES: Array<[string, string, string, string, string | null]> = [
  [
    'do not honor',
    '4000000000000002',
    'Your card was declined. Please use another card.',
    'Su tarjeta fue rechazada. Use otra tarjeta.',
    null,
  ],
  [
    'insufficient funds',
    '4000000000009995',
    'Your card does not have enough funds for this payment. Please use another card.',
    'Su tarjeta no tiene fondos suficientes para este pago. Use otra tarjeta.',
    null,
  ],
  [
    'expired card',
    '4000000000000069',
    'This card has expired. Please use another card.',
    'Esta tarjeta ha caducado. Use otra tarjeta.',
    'cc-exp',
  ],
  [
    'incorrect CVC',
    '4000000000000127',
    'The security code is incorrect. Check the 3 or 4 digits on your card and try again.',
    'El código de seguridad no es correcto. Revise los 3 o 4 dígitos de su tarjeta e inténtelo de nuevo.',
    'cc-csc',
  ],
];

test('each decline family has its own message, in English and in Spanish', async ({ page, request }) => {
  const seen = new Set<string>();
  for (const [, number, english, spanish, field] of FAMILIES) {
    const en = await createSession(request);
    await page.goto(`/pay/${en.token}`);
    await payCard(page, number);
    if (field) {
      const input = page.locator(`#${field}`);
      await expect(page.locator(`#${field}-error`)).toHaveText(english);
      await expect(input).toHaveAttribute('aria-invalid', 'true');
      await expect(input).toHaveAccessibleDescription(new RegExp(english.replace(/[.?]/g, '\\$&')));
      await expect(input).toBeFocused();
      await expect(page.locator('.pf-alert')).toHaveCount(0);
    } else {
      const alert = page.locator('.pf-alert');
      await expect(alert.locator('.pf-alert-title')).toHaveText('Payment declined');
      await expect(alert).toContainText(english);
      // Beside Pay: right above the button, not at the top of the form.
      const pay = (await page.getByRole('button', { name: /^Pay/ }).boundingBox())!;
      const box = (await alert.boundingBox())!;
      expect(pay.y - (box.y + box.height)).toBeLessThan(40);
      expect(pay.y).toBeGreaterThan(box.y);
    }
    const es = await createSession(request, { locale: 'es' });
    await page.goto(`/pay/${es.token}`);
    await payCard(page, number, {
      number: 'Número de tarjeta',
      exp: 'Fecha de caducidad',
      cvv: 'Código de seguridad',
    });
    if (field) await expect(page.locator(`#${field}-error`)).toHaveText(spanish);
    else await expect(page.getByRole('alert')).toContainText(spanish);
    seen.add(english).add(spanish);
    expect((await merchantView(request, en.token)).status).toBe('open');
  }
  expect(seen.size).toBe(FAMILIES.length * 2);
});

test("an ACH receipt: submitted, with the bank's timeline; bank account and last four; no card and no approval code", async ({
  page,
  request,
}) => {
  const s = await createSession(request);
  await page.goto(`/pay/${s.token}`);
  await page.getByRole('radio', { name: 'Bank account' }).check();
  await page.getByLabel('Routing number').fill('011000015');
  await page.getByLabel('Account number', { exact: true }).fill('000123456789');
  await page.getByLabel('Confirm account number').fill('000123456789');
  await page.getByLabel(/I authorize Payframe Demo Store to debit \$25\.00/).check();
  await page.getByRole('button', { name: 'Pay $25.00' }).click();
  await expect(page.getByRole('heading', { name: 'Payment submitted' })).toBeFocused();
  await expect(page.getByTestId('ach-timeline')).toHaveText(
    'Your bank payment to Payframe Demo Store is processing. It usually completes in 3 to 5 business days; until then your bank can still return it.',
  );
  const receipt = page.getByTestId('receipt');
  await expect(receipt).toContainText('Bank account••6789');
  await expect(receipt).toContainText('Submitted');
  await expect(receipt).not.toContainText('Approval code');
  await expect(receipt.getByText('Card', { exact: true })).toHaveCount(0);
  // A reload shows the same receipt (the gateway's record of the debit).
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Payment submitted' })).toBeVisible();
  await expect(page.getByTestId('receipt')).toContainText('Bank account••6789');
});

test('a canceled session asks for nothing: no "Amount due"', async ({ page, request }) => {
  const s = await createSession(request);
  await page.goto(`/pay/${s.token}`);
  await expect(page.getByText('Amount due')).toBeVisible();
  await page.getByRole('button', { name: 'Cancel payment' }).click();
  await page.getByRole('button', { name: 'Yes, cancel the payment' }).click();
  await expect(page.getByRole('heading', { name: 'Payment canceled' })).toBeVisible();
  await expect(page.getByText('Amount due')).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Payment canceled' })).toBeVisible();
  await expect(page.getByText('Amount due')).toHaveCount(0);
});
