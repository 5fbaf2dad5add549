/**
 * The preview's draft (preview.ts): only a well-formed message of the dashboard's is taken, and a
 * value that could not be the merchant's (a colour that is not #rrggbb, a radius out of range, a
 * logo that is not https) is previewed as the default, never passed on as it came.
 */
import { describe, expect, it } from 'vitest';
import { PREVIEW_SESSION } from '../../../server/checkout/pages.ts';
import { PREVIEW_MESSAGE, previewDraft, withDraft } from './preview.ts';
import { brandingTheme } from './theme.ts';

const draft = {
  name: 'Sunny Goods',
  logoUrl: 'https://cdn.sunny.example/logo.png',
  website: 'https://sunny.example',
  brandColor: '#ffd600',
  cornerRadius: 12,
  methods: ['card', 'ach'],
  nameOnCardRequired: true,
};

describe('previewDraft', () => {
  it('takes a draft of the right shape, and puts it in the sample session', () => {
    const d = previewDraft({ type: PREVIEW_MESSAGE, draft });
    expect(d).toEqual(draft);
    expect(withDraft(PREVIEW_SESSION, d!)).toMatchObject({
      token: 'preview',
      merchant: { name: 'Sunny Goods', brandColor: '#ffd600', cornerRadius: 12 },
      methods: ['card', 'ach'],
      nameOnCardRequired: true,
    });
  });

  it('previews the footer links (https only) and the postal code field', () => {
    const d = previewDraft({
      type: PREVIEW_MESSAGE,
      draft: {
        ...draft,
        termsUrl: 'https://shop.example/terms',
        privacyUrl: 'http://shop.example/privacy',
        postalCodeRequired: true,
      },
    });
    expect(withDraft(PREVIEW_SESSION, d!)).toMatchObject({
      merchant: { termsUrl: 'https://shop.example/terms', privacyUrl: null },
      postalCode: 'required',
    });
    expect(withDraft(PREVIEW_SESSION, previewDraft({ type: PREVIEW_MESSAGE, draft })!)).toMatchObject({
      merchant: { termsUrl: null, privacyUrl: null },
      postalCode: 'hidden',
    });
    expect(
      previewDraft({ type: PREVIEW_MESSAGE, draft: { ...draft, postalCodeRequired: 'yes' } }),
    ).toBeNull();
  });

  it('previews a value not (yet) valid as the default', () => {
    const d = previewDraft({
      type: PREVIEW_MESSAGE,
      draft: {
        ...draft,
        brandColor: 'red;background:url(x)',
        cornerRadius: 99,
        logoUrl: 'javascript:alert(1)',
        website: 'data:text/html,x',
        methods: [],
      },
    });
    expect(d).toMatchObject({
      brandColor: null,
      cornerRadius: null,
      logoUrl: null,
      website: null,
      methods: ['card'],
    });
  });

  it('ignores anything else', () => {
    expect(previewDraft(null)).toBeNull();
    expect(previewDraft({ type: 'payframe:other', draft })).toBeNull();
    expect(previewDraft({ type: PREVIEW_MESSAGE, draft: { ...draft, name: 7 } })).toBeNull();
    expect(previewDraft({ type: PREVIEW_MESSAGE, draft: { ...draft, methods: ['cash'] } })).toBeNull();
    expect(
      previewDraft({ type: PREVIEW_MESSAGE, draft: { ...draft, nameOnCardRequired: 'yes' } }),
    ).toBeNull();
  });
});

describe('brandingTheme', () => {
  it('takes a #rrggbb colour and a whole radius of 0 to 24 only', () => {
    expect(brandingTheme({ brandColor: '#0a7c4b', cornerRadius: 0 })).toEqual({
      primaryColor: '#0a7c4b',
      radius: 0,
    });
    expect(brandingTheme({ brandColor: 'expression(x)', cornerRadius: 25 })).toEqual({});
    expect(brandingTheme({ brandColor: null, cornerRadius: null })).toEqual({});
  });
});
