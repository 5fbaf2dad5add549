/**
 * Merchant themes (security-requirements.md XSS-3; attack row 10): a brand colour is a strict
 * `#rrggbb` hex and a font a plain family list, or the theme is refused as a whole. Both checks are
 * exercised: the shared `Theme` schema and the hosted page's own parser (widget/app/pay/theme.ts,
 * which runs before zod loads), and they must agree on every case.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { Theme } from '../../shared/checkout/embed-messages.ts';

type ParseTheme = (raw: string | null) => Record<string, unknown>;

/**
 * The page's parser, loaded by path: its module also holds DOM code the server's type check has no
 * library for, and only `parseTheme` (plain string checks) runs here.
 */
async function pageParser(): Promise<ParseTheme> {
  const path = fileURLToPath(new URL('../../widget/app/pay/theme.ts', import.meta.url));
  const mod = (await import(path)) as { parseTheme: ParseTheme };
  return mod.parseTheme;
}

const HOSTILE_COLOURS = [
  'red;}body{display:none}',
  '#fff;}body{display:none}',
  '#3355ff;background:url(https://evil.example/x)',
  '#3355ff}',
  'red',
  '#fff',
  '#3355ffaa',
  'rgb(0,0,0)',
  'expression(alert(1))',
  'var(--x)',
  '#33 55ff',
  '#3355gg',
  ' #3355ff',
  '#3355ff\n',
  '#3355ff/**/',
  'url(javascript:alert(1))',
];

const HOSTILE_FONTS = [
  'Arial;}body{display:none}',
  'Arial"; color: red',
  'x</style><script>alert(1)</script>',
  'url(https://evil.example/font.woff)',
  'Arial\\3b',
  'a'.repeat(101),
];

describe('row 10: brand colours and fonts are strict, or the theme is ignored', () => {
  it.each(HOSTILE_COLOURS)(
    'row 10: brand colours — %j is refused by the schema and by the page',
    async (colour) => {
      const parseTheme = await pageParser();
      expect(Theme.safeParse({ primaryColor: colour }).success).toBe(false);
      expect(parseTheme(JSON.stringify({ primaryColor: colour }))).toEqual({});
      // One bad value sinks the whole theme: a valid radius beside it is not applied either.
      expect(parseTheme(JSON.stringify({ primaryColor: colour, radius: 4 }))).toEqual({});
    },
  );

  it.each(HOSTILE_FONTS)('row 10: fonts — %j is refused by the schema and by the page', async (font) => {
    const parseTheme = await pageParser();
    expect(Theme.safeParse({ font }).success).toBe(false);
    expect(parseTheme(JSON.stringify({ font }))).toEqual({});
  });

  it('row 10: unknown keys (a CSS or style property) and non-JSON are refused too', async () => {
    const parseTheme = await pageParser();
    for (const theme of [
      { css: 'body{display:none}' },
      { style: 'display:none' },
      { primaryColor: '#3355ff', x: 1 },
    ]) {
      expect(Theme.safeParse(theme).success).toBe(false);
      expect(parseTheme(JSON.stringify(theme))).toEqual({});
    }
    expect(parseTheme('{"primaryColor":"#3355ff"')).toEqual({});
    expect(parseTheme('["#3355ff"]')).toEqual({});
  });

  it('the control: a valid theme passes both, unchanged', async () => {
    const parseTheme = await pageParser();
    const good = {
      primaryColor: '#3355FF',
      radius: 8,
      font: "Inter, 'Helvetica Neue', sans-serif",
      mode: 'dark',
    };
    expect(Theme.parse(good)).toEqual(good);
    expect(parseTheme(JSON.stringify(good))).toEqual(good);
  });
});
