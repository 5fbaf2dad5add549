/**
 * The light check of the page's session block (page-state.ts) agrees with the WidgetSession schema
 * on sessions with and without the optional fields (issue 20's unavailableMessage and capabilities
 * among them), and on each broken one: the block is used only when the API would have sent it.
 */
import { describe, expect, test } from 'vitest';
import { WidgetSession } from '../../../shared/checkout/pay-schemas.ts';
import { isSession } from './page-state.ts';

const BASE = {
  token: 'cs_' + 'a'.repeat(43),
  status: 'open',
  amount: '25.00',
  currency: 'USD',
  orderNumber: 'A-1',
  expiresAt: '2026-11-24T19:00:00.000Z',
  merchant: { name: 'Shop', logoUrl: null, website: null, brandColor: null, cornerRadius: null },
  methods: ['card'],
  locale: null,
  embedOrigins: ['https://shop.example'],
  threeDSecure: false,
  returnMode: 'immediate',
  nameOnCardRequired: false,
  shopper: { email: null, firstName: null, lastName: null, zipCode: null },
  description: null,
  lineItems: null,
  backUrl: 'https://shop.example/cart',
};

const VALID: Record<string, object> = {
  'without the optional fields': BASE,
  'ended, with the Transaction Service’s reason': {
    ...BASE,
    status: 'expired',
    unavailableMessage: 'The payment page has expired.',
  },
  'with a null reason': { ...BASE, unavailableMessage: null },
  'with what the checkout cannot do': { ...BASE, capabilities: { cancel: false, removeSavedCard: false } },
  'with everything allowed': { ...BASE, capabilities: { cancel: true, removeSavedCard: true } },
};

const BROKEN: Record<string, object> = {
  'a reason that is not text': { ...BASE, unavailableMessage: 42 },
  'capabilities that are not an object': { ...BASE, capabilities: true },
  'capabilities without cancel': { ...BASE, capabilities: { removeSavedCard: false } },
  'capabilities without removeSavedCard': { ...BASE, capabilities: { cancel: false } },
  'a capability that is not a boolean': { ...BASE, capabilities: { cancel: 'no', removeSavedCard: true } },
  'an unknown status': { ...BASE, status: 'unavailable' },
};

describe('the page block check agrees with WidgetSession', () => {
  test.each(Object.entries(VALID))('accepts a session %s', (_name, session) => {
    expect(WidgetSession.safeParse(session).success).toBe(true);
    expect(isSession(session)).toBe(true);
  });

  test.each(Object.entries(BROKEN))('refuses a session with %s', (_name, session) => {
    expect(WidgetSession.safeParse(session).success).toBe(false);
    expect(isSession(session)).toBe(false);
  });
});
