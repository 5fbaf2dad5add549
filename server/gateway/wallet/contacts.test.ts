import { describe, expect, it } from 'vitest';
import { normalizeEmail, normalizePhone, parseContacts } from './contacts.ts';

describe('wallet contacts', () => {
  it('e-mail: trimmed and lower-cased; not an address → null', () => {
    expect(normalizeEmail('  Jo.Doe+shop@Example.COM ')).toBe('jo.doe+shop@example.com');
    for (const bad of [
      'jo',
      'jo@',
      '@example.com',
      'jo@example',
      'jo doe@example.com',
      `${'a'.repeat(250)}@x.io`,
    ])
      expect(normalizeEmail(bad), bad).toBeNull();
  });

  it('phone: + and 7–15 digits; 00 is +; 10 digits (or 1 + 10) are North American', () => {
    expect(normalizePhone('+44 20 7946 0958')).toBe('+442079460958');
    expect(normalizePhone('0044 (20) 7946-0958')).toBe('+442079460958');
    expect(normalizePhone('(415) 555-0142')).toBe('+14155550142');
    expect(normalizePhone('1.415.555.0142')).toBe('+14155550142');
    expect(normalizePhone('+1 415 555 0142')).toBe('+14155550142');
    for (const bad of [
      '12',
      '555-0142',
      '+0123456789',
      '+1234567890123456',
      'call me',
      '07946 0958',
      '+44 20 7946 095x',
    ])
      expect(normalizePhone(bad), bad).toBeNull();
  });

  it('parseContacts: empty means not given; a given contact that is not valid is a problem', () => {
    expect(parseContacts({ email: ' ', phone: null })).toEqual({
      ok: true,
      contacts: { email: null, phone: null },
    });
    expect(parseContacts({ email: 'A@B.io', phone: '4155550142' })).toEqual({
      ok: true,
      contacts: { email: 'a@b.io', phone: '+14155550142' },
    });
    expect(parseContacts({ email: 'nope', emailField: 'CardEmail' })).toEqual({
      ok: false,
      message: 'CardEmail is not a valid e-mail address.',
    });
    expect(parseContacts({ phone: '12' })).toMatchObject({
      ok: false,
      message: /^phoneNumber is not a valid/,
    });
  });
});
