import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, test } from 'vitest';
import { PAGE_LANGS } from '../../../../shared/checkout/page-lang.ts';
import { documentLang, english, loadI18n, setDocumentLang } from './index.ts';

describe('loadI18n', () => {
  // Each language's loader brings that language's own dictionary (a table slip would show another).
  test.each(PAGE_LANGS.filter((l) => l !== 'en'))('%s comes from its own file', async (lang) => {
    const file = path.join(path.dirname(fileURLToPath(import.meta.url)), `${lang}.ts`);
    const own = (await import(/* @vite-ignore */ pathToFileURL(file).href)) as typeof import('./es.ts');
    const i18n = await loadI18n(lang);
    expect(i18n.lang).toBe(lang);
    expect(i18n.t('cardNumber')).toBe(own.messages.cardNumber);
    expect(i18n.decline('05', 'card')).toBe(own.declines.card['05']);
    expect(i18n.decline('zz', 'ach')).toBe(own.declines.other);
  });

  test('English is the bundled one, with the shared decline messages', async () => {
    expect(await loadI18n('en')).toBe(english);
    expect(english.decline('51', 'card')).toMatch(/enough funds/);
  });
});

test("counts are written in the language's digits and grouping; other values as they are", async () => {
  expect(english.t('errSummaryMany', { n: 1234 })).toBe('Please correct 1,234 fields.');
  const de = await loadI18n('de');
  expect(de.t('errSummaryMany', { n: 1234 })).toContain(new Intl.NumberFormat('de').format(1234));
  expect(english.t('pay', { amount: '$1,234.00' })).toBe('Pay $1,234.00');
  expect(english.t('pay')).toBe('Pay {amount}');
});

test('the language <html lang> names (the route chose it), English for any other', () => {
  const page = (lang: string) => ({ lang }) as HTMLElement;
  expect(PAGE_LANGS.map((l) => documentLang(page(l)))).toEqual([...PAGE_LANGS]);
  for (const other of ['', 'xx', 'toString', 'EN', 'zh']) expect(documentLang(page(other))).toBe('en');
});

test('the document says the language and its direction', () => {
  const root = { lang: '', dir: '' } as HTMLElement;
  setDocumentLang('ar', root);
  expect([root.lang, root.dir]).toEqual(['ar', 'rtl']);
  setDocumentLang('ja', root);
  expect([root.lang, root.dir]).toEqual(['ja', 'ltr']);
});
