/**
 * The page while its session loads (issue 14 §3): the form's own layout — drawn by the very
 * components that draw the form, for a session of the shape most have — with blocks where its words
 * will be. It takes the height the form will take, so nothing moves when the form replaces it (and
 * in a merchant's iframe the loader hears that height). Nothing in it can be reached: it is inert
 * and hidden from assistive technology, which hears a polite "Loading" and sees the page busy.
 */
import type { ComponentChildren } from 'preact';
import type { WidgetSession } from '../../../../shared/checkout/index.ts';
import { useI18n } from '../i18n/context.ts';

/**
 * What the skeleton lays out: a merchant with a website and an order number, card and bank account,
 * a shopper's e-mail (so "Use a saved card" and "Save this card"), a way back to the store. Its
 * values are never shown.
 */
export const SKELETON_SESSION: WidgetSession = {
  token: '',
  status: 'open',
  amount: '0.00',
  currency: 'USD',
  orderNumber: 'ORDER-0000',
  expiresAt: null,
  merchant: {
    name: 'Merchant',
    logoUrl: null,
    website: 'https://merchant.invalid/',
    brandColor: null,
    cornerRadius: null,
  },
  methods: ['card', 'ach'],
  locale: null,
  embedOrigins: [],
  threeDSecure: false,
  returnMode: 'immediate',
  nameOnCardRequired: false,
  shopper: { email: 'shopper@example.com', firstName: null, lastName: null, zipCode: null },
  backUrl: 'https://merchant.invalid/',
  description: null,
  lineItems: null,
};

export function Skeleton({ children }: { children: ComponentChildren }) {
  const { t } = useI18n();
  return (
    <>
      <p role="status" class="pf-sr" data-testid="loading">
        {t('loading')}
      </p>
      <div class="pf-skeleton" inert aria-hidden="true" data-testid="skeleton">
        {children}
      </div>
    </>
  );
}
