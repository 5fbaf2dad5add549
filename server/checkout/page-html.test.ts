/**
 * page-html.ts on its own (pages.test.ts covers the route): the state stays data whatever its text,
 * and the template around it is untouched.
 */
import { describe, expect, it } from 'vitest';
import { jsonForScript, pageWithState } from './page-html.ts';

const TEMPLATE =
  '<!doctype html>\n<html lang="en">\n  <head>\n    <title>Payframe checkout</title>\n  </head>\n' +
  '  <body>\n    <main id="app"></main>\n  </body>\n</html>\n';

describe('jsonForScript', () => {
  it('escapes what could end the element or a JavaScript line, and parses back to the same value', () => {
    const value = { s: '</script><!--<script>&\u2028\u2029\\</' };
    const json = jsonForScript(value);
    expect(json).not.toMatch(/[<>&\u2028\u2029]/);
    expect(json).toContain('\\u003c/script\\u003e\\u003c!--');
    expect(JSON.parse(json)).toEqual(value);
  });
});

describe('pageWithState', () => {
  it('puts the block before </head> and the language on <html>, reading no $ pattern in the data', () => {
    const page = pageWithState(TEMPLATE, { orderNumber: "$' $& $`" } as never, 'es');
    expect(page).toContain('<html lang="es" dir="ltr">');
    expect(page).toContain(
      '<script type="application/json" id="payframe-session">{"orderNumber":"$\' $\\u0026 $`"}</script>\n</head>',
    );
    expect(page.replace(/<script[^]*?<\/script>\n/, '').replace('lang="es" dir="ltr"', 'lang="en"')).toBe(
      TEMPLATE,
    );
  });

  it('writes null for no such session, and no block when the page could not ask', () => {
    expect(pageWithState(TEMPLATE, null, 'en')).toContain('id="payframe-session">null</script>');
    expect(pageWithState(TEMPLATE, null, 'he')).toContain('<html lang="he" dir="rtl">');
    expect(pageWithState(TEMPLATE, undefined, 'en')).toBe(
      TEMPLATE.replace('lang="en"', 'lang="en" dir="ltr"'),
    );
  });
});
