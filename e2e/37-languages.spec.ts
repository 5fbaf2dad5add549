/**
 * The hosted page in every language it speaks (issue 17), in Chromium: the page renders in the
 * session's language (the route's `<html lang dir>`, the labels), a declined card shows the bank's
 * refusal in that language, a good card pays and the receipt says so in it. Arabic and Hebrew
 * read right to left with the card fields left to right; Arabic and Japanese pass axe on every
 * screen, with light and dark screenshots at 320 px attached to the report. The selector switches
 * the language without a reload, and the bank's 3-D Secure page and the one-time code's e-mail
 * follow the language picked there; the browser's Accept-Language chooses when the session does
 * not. The expected words are the dictionaries' own (widget/app/pay/i18n/<lang>.ts, server/i18n).
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, type TestInfo, test } from '@playwright/test';
import { PAGE_LANGS, type PageLang } from '../shared/checkout/page-lang.ts';
import type { DeclineMessages, Messages } from '../widget/app/pay/i18n/en.ts';
import { createSession, futureExpiry, latestCode, merchantView } from './helpers/checkout.ts';

type Dictionary = { messages: Messages; declines: DeclineMessages };
const dictionary = async (lang: PageLang) =>
  (await import(`../widget/app/pay/i18n/${lang}.ts`)) as Dictionary;

const DECLINED_CARD = '4000000000000002'; // the simulator's "do not honour" (code 05)
const GOOD_CARD = '4242424242424242';

async function expectAccessible(page: Page) {
  const result = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'])
    .analyze();
  expect(
    result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
  ).toEqual([]);
}

/** axe in light and dark, and the screen at 320 px in each, attached to the test's report. */
async function checkAndShoot(page: Page, info: TestInfo, name: string) {
  const size = page.viewportSize() ?? { width: 1280, height: 800 };
  await page.setViewportSize({ width: 320, height: 700 });
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
    await expectAccessible(page);
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow, 'no horizontal scrolling at 320 px').toBeLessThanOrEqual(0);
    await info.attach(`${name}-${scheme}-320`, {
      body: await page.screenshot({ fullPage: true }),
      contentType: 'image/png',
    });
  }
  await page.emulateMedia({ colorScheme: 'light', reducedMotion: 'no-preference' });
  await page.setViewportSize(size);
}

async function fillCard(page: Page, m: Messages, number: string) {
  await page.getByLabel(m.cardNumber).fill(number);
  await page.getByLabel(m.expiry).fill(futureExpiry());
  await page.getByLabel(m.cvv).fill('123');
  await page.locator('button.pf-pay').click();
}

for (const lang of PAGE_LANGS.filter((l) => l !== 'en')) {
  test(
    `${lang}: the page, a declined card and a payment, in ${lang}`,
    { tag: lang === 'ar' ? [] : ['@system'] },
    async ({ page, request }, info) => {
      // Two payments; for Arabic and Japanese axe and screenshots on three screens, light and dark.
      test.setTimeout(lang === 'ar' || lang === 'ja' ? 180_000 : 60_000);
      const { messages: m, declines } = await dictionary(lang);
      const s = await createSession(request, { locale: lang });
      await page.goto(`/pay/${s.token}`);
      const rtl = lang === 'ar' || lang === 'he';
      // The route wrote the language and direction: right from the first paint, not after the app.
      const html = await (await request.get(`/pay/${s.token}`)).text();
      expect(html).toContain(`<html lang="${lang}" dir="${rtl ? 'rtl' : 'ltr'}">`);
      await expect(page.locator('html')).toHaveAttribute('lang', lang);
      await expect(page.locator('html')).toHaveAttribute('dir', rtl ? 'rtl' : 'ltr');
      await expect(page.getByLabel(m.cardNumber)).toBeVisible();
      await expect(page.getByText(m.amountDue, { exact: true })).toBeVisible();
      // Card fields read left to right on every page; the amount uses the language's own format.
      for (const label of [m.cardNumber, m.expiry, m.cvv]) {
        await expect(page.getByLabel(label)).toHaveAttribute('dir', 'ltr');
      }
      const amount = await page.evaluate(
        (l) => new Intl.NumberFormat(l, { style: 'currency', currency: 'USD' }).format('25.00' as never),
        lang,
      );
      await expect(page.getByTestId('amount')).toHaveText(amount);
      // The amount reads left to right inside, whatever the page's direction ("25.00 US$" in Arabic).
      const inside = page.getByTestId('amount').locator('bdi');
      expect(await inside.evaluate((e) => getComputedStyle(e).direction)).toBe('ltr');

      if (lang === 'ar' || lang === 'ja') await checkAndShoot(page, info, `${lang}-form`);

      await fillCard(page, m, DECLINED_CARD);
      await expect(page.getByRole('alert')).toContainText(declines.card['05']!);
      await expect(page.getByRole('alert')).toContainText(m.declinedTitle);
      if (rtl) {
        // The alert's accent is on its start side, the right in a right-to-left page (logical CSS).
        const border = await page
          .locator('.pf-alert')
          .evaluate((e) => [getComputedStyle(e).borderRightWidth, getComputedStyle(e).borderLeftWidth]);
        expect(border).toEqual(['4px', '0px']);
      }
      if (lang === 'ar' || lang === 'ja') await checkAndShoot(page, info, `${lang}-declined`);

      await fillCard(page, m, GOOD_CARD);
      await expect(page.getByRole('heading', { name: m.paidTitle })).toBeVisible({ timeout: 15_000 });
      await expect(page.getByTestId('receipt')).toContainText(m.rApproval);
      expect((await merchantView(request, s.token)).status).toBe('paid');
      if (lang === 'ar' || lang === 'ja') await checkAndShoot(page, info, `${lang}-receipt`);
    },
  );
}

test('the selector: each language in its own words, reached with Tab, switching without a reload', async ({
  page,
  request,
}) => {
  const s = await createSession(request);
  await page.goto(`/pay/${s.token}`);
  await expect(page.getByLabel('Card number')).toBeVisible();
  const select = page.getByLabel('Language', { exact: true });
  await expect(select).toBeVisible();
  const names = await select.locator('option').allTextContents();
  expect(names).toHaveLength(PAGE_LANGS.length);
  expect(names).toEqual(expect.arrayContaining(['English', 'Français', '日本語', 'العربية', 'עברית']));
  await page.evaluate(() => ((window as { stayed?: boolean }).stayed = true));
  await page.getByLabel('Card number').fill('4242424242424242');

  const ja = (await dictionary('ja')).messages;
  await select.focus();
  await select.selectOption('ja');
  await expect(page.getByLabel(ja.cardNumber)).toBeVisible();
  // What the shopper typed is still there: the same form, in other words.
  await expect(page.getByLabel(ja.cardNumber)).toHaveValue('4242 4242 4242 4242');
  await expect(page.locator('html')).toHaveAttribute('lang', 'ja');
  await expect(page.getByLabel('言語', { exact: true })).toBeFocused();

  // To Arabic: the page turns right to left, still the same page, the selector still in the Tab order.
  const ar = (await dictionary('ar')).messages;
  await page.getByLabel('言語', { exact: true }).selectOption('ar');
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await expect(page.getByLabel(ar.cardNumber)).toBeVisible();
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Tab');
  await expect(page.locator('#pf-lang')).toBeFocused();
  expect(await page.evaluate(() => (window as { stayed?: boolean }).stayed)).toBe(true);
});

test(
  "the browser's languages choose when the session names none (q-values, fallbacks)",
  { tag: '@system' },
  async ({ browser, request }) => {
    const s = await createSession(request);
    const cases: [string, PageLang][] = [
      ['fr-CA', 'fr'],
      ['pt-PT', 'pt-BR'],
      ['zh-SG', 'zh-CN'],
      ['nb-NO', 'en'],
    ];
    for (const [locale, lang] of cases) {
      const context = await browser.newContext({ locale });
      const page = await context.newPage();
      await page.goto(`/pay/${s.token}`);
      const m = (await dictionary(lang).catch(() => null))?.messages;
      await expect(page.locator('html')).toHaveAttribute('lang', lang);
      await expect(page.getByLabel(m?.cardNumber ?? 'Card number')).toBeVisible();
      await context.close();
    }
    // The session's locale comes before the browser's.
    const context = await browser.newContext({ locale: 'ja-JP' });
    const page = await context.newPage();
    const de = await createSession(request, { locale: 'de-AT' });
    await page.goto(`/pay/${de.token}`);
    await expect(page.locator('html')).toHaveAttribute('lang', 'de');
    await context.close();
  },
);

test(
  "the bank's 3-D Secure page speaks the language the shopper picked, not the session's",
  { tag: '@system' },
  async ({ page, request }) => {
    test.setTimeout(60_000);
    const { ja: bankWords } = await import('../server/i18n/ja.ts');
    const ja = (await dictionary('ja')).messages;
    const s = await createSession(request, { locale: 'ar' });
    await page.goto(`/pay/${s.token}`);
    await page.locator('#pf-lang').selectOption('ja');
    await expect(page.locator('html')).toHaveAttribute('lang', 'ja');
    await page.getByLabel(ja.cardNumber).fill('4000000000003220'); // the simulator's challenge card
    await page.getByLabel(ja.expiry).fill(futureExpiry());
    await page.getByLabel(ja.cvv).fill('123');
    await page.locator('button.pf-pay').click();
    const bank = page.frameLocator(`iframe[title="${ja.tdsFrame}"]`);
    await expect(bank.locator('html')).toHaveAttribute('lang', 'ja');
    await bank.getByRole('button', { name: bankWords.tdsAuthenticate }).click();
    await expect(page.getByRole('heading', { name: ja.paidTitle })).toBeVisible({ timeout: 15_000 });
  },
);

test(
  "the one-time code's e-mail speaks the language the shopper picked, not the session's",
  { tag: '@system' },
  async ({ page, request }) => {
    test.setTimeout(60_000);
    const { sv: serverWords } = await import('../server/i18n/sv.ts');
    const sv = (await dictionary('sv')).messages;
    // A card saved to the address first: a code goes only to an address with saved cards.
    const first = await createSession(request);
    await page.goto(`/pay/${first.token}`);
    await page.getByLabel('Card number').fill(GOOD_CARD);
    await page.getByLabel('Expiration date').fill(futureExpiry());
    await page.getByLabel('Security code').fill('123');
    await page.getByLabel('Save this card for faster checkout').check();
    await page.locator('button.pf-pay').click();
    await expect(page.getByRole('heading', { name: 'Payment successful' })).toBeVisible();

    const s = await createSession(request, {
      locale: 'es',
      shopper: { email: first.email, firstName: 'Ada', lastName: 'Lovelace' },
    });
    await page.goto(`/pay/${s.token}`);
    await page.locator('#pf-lang').selectOption('sv');
    await page.getByRole('button', { name: sv.getCode }).click();
    const sent = await latestCode(request, first.email);
    const outbox = await request.get(`/dev/outbox?to=${encodeURIComponent(first.email)}`);
    const { messages } = (await outbox.json()) as { messages: { id: string | number; text: string }[] };
    const text = messages.find((m) => String(m.id) === sent.id)?.text ?? '';
    expect(text).toContain(serverWords.otpEmail.split('{')[0]!.trim());
  },
);
