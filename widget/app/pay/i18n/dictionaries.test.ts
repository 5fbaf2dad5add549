/**
 * Every dictionary in this folder says what English says (issue 17): the same keys, no more, the
 * same `{placeholders}` in each message, a message for each decline code, and nothing left empty.
 * Runs over every `<lang>.ts` present, offered (PAGE_LANGS) or not yet, so a translation is held to
 * English from its first commit.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, test } from 'vitest';
import { DECLINE_CODES } from '../../../../shared/checkout/decline-messages.ts';
import { PAGE_LANGS } from '../../../../shared/checkout/page-lang.ts';
import { type DeclineMessages, en, type Messages } from './en.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const LANGS = fs
  .readdirSync(HERE)
  .map((f) => /^([a-z]{2}(?:-[A-Z]{2})?)\.ts$/.exec(f)?.[1])
  .filter((l): l is string => l !== undefined && l !== 'en');

type Dictionary = { messages: Messages; declines: DeclineMessages };
const load = async (lang: string) =>
  (await import(/* @vite-ignore */ pathToFileURL(path.join(HERE, `${lang}.ts`)).href)) as Dictionary;

const placeholders = (text: string) => [...new Set(text.match(/\{\w+\}/g) ?? [])].sort();

/** What a dictionary lacks or has too much of, and each key whose placeholders differ from English. */
function differences(messages: Record<string, unknown>, english: Record<string, string> = en) {
  const keys = Object.keys(english);
  return {
    missing: keys.filter((k) => !Object.hasOwn(messages, k)),
    extra: Object.keys(messages).filter((k) => !Object.hasOwn(english, k)),
    empty: keys.filter((k) => typeof messages[k] !== 'string' || (messages[k] as string).trim() === ''),
    placeholders: keys
      .filter((k) => typeof messages[k] === 'string')
      .filter((k) => placeholders(messages[k] as string).join() !== placeholders(english[k]!).join())
      .map(
        (k) =>
          `${k}: ${placeholders(messages[k] as string).join(' ')} ≠ ${placeholders(english[k]!).join(' ')}`,
      ),
  };
}

const NONE = { missing: [], extra: [], empty: [], placeholders: [] };

test('the check finds a missing key, an extra one, an empty one and a changed placeholder', () => {
  const english = { a: 'Pay {amount}', b: 'Back', c: '{n} of {m}' };
  expect(differences({ a: 'Payer {amount}', b: 'Retour', c: '{m} sur {n}' }, english)).toEqual(NONE);
  expect(differences({ a: 'Payer {montant}', c: ' ', d: 'x' }, english)).toEqual({
    missing: ['b'],
    extra: ['d'],
    empty: ['b', 'c'],
    placeholders: ['a: {montant} ≠ {amount}', 'c:  ≠ {m} {n}'],
  });
});

test('every offered language has its dictionary here, and a dictionary or two are here', () => {
  expect(LANGS).toContain('es');
  for (const lang of PAGE_LANGS.filter((l) => l !== 'en')) expect(LANGS).toContain(lang);
});

describe.each(LANGS)('%s', (lang) => {
  test('has every English key, no other, with the same placeholders', async () => {
    expect(differences((await load(lang)).messages)).toEqual(NONE);
  });

  test('words every decline code English words, and the others', async () => {
    const { declines } = await load(lang);
    expect(Object.keys(declines.card).sort()).toEqual([...DECLINE_CODES.card].sort());
    expect(Object.keys(declines.ach).sort()).toEqual([...DECLINE_CODES.ach].sort());
    for (const text of [...Object.values(declines.card), ...Object.values(declines.ach), declines.other]) {
      expect(text.trim()).not.toBe('');
      expect(placeholders(text)).toEqual([]);
    }
  });
});
