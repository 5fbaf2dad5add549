/**
 * The gateway scenario, part 1 — payments (issue "gateway part 1", docs/gateway.md, docs/test-cards.md):
 * through the real SOAP endpoint, on every database target, a merchant charges each test card,
 * reads AVS, authorises and captures in parts, voids, refunds, partially reverses, debits bank
 * accounts, and pays with a stored token that another merchant cannot use.
 * Recurring, settlement and history: gateway-scenario-lifecycle.test.ts; merchant data, card info and
 * checkout sessions: gateway-scenario-merchant.test.ts; 3-D Secure and TestRequest:
 * gateway-scenario-3ds.test.ts; the same through python3-zeep: test/system/conformance/gateway/zeep-scenario.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OperationResult } from '../../shared/contract/service.ts';
import { databaseTargets } from '../../test/kit/databases.ts';
import { ACH_TEST_ACCOUNTS, TEST_CARDS } from './processor/simulator.ts';
import {
  call,
  card,
  type GatewayWorld,
  openWorld,
  pay,
  rawCall,
  type TestMerchant,
} from '../../test/kit/gateway/gateway-kit.ts';

type Response = OperationResult<'ProcessTransaction'>;

describe.each(databaseTargets())('gateway scenario: payments ($name)', (target) => {
  let w: GatewayWorld;
  const tx = (fields: Record<string, unknown>, m: TestMerchant = w.a): Promise<Response> =>
    call(w.app, 'ProcessTransaction', pay(m, fields), m.as);
  const follow = (type: string, original: string, fields: Record<string, unknown> = {}) =>
    tx({ TransactionType: type, OriginalTransactionID: original, ...fields });

  beforeAll(async () => {
    w = await openWorld(target);
  });
  afterAll(() => w?.close());

  it('a merchant enrolled in 3-D Secure says so; another is not', async () => {
    expect(await call(w.app, 'Verify3DSecureMerchant', { merchantID: w.a.id }, w.a.as)).toBe(true);
    expect(await call(w.app, 'Verify3DSecureMerchant', { merchantID: w.b.id }, w.b.as)).toBe(false);
  });

  it.each([
    ['Visa', TEST_CARDS.visa, '123', '00', 'Approved', '424242******4242'],
    ['Mastercard', TEST_CARDS.mastercard, '123', '00', 'Approved', '555555******4444'],
    ['American Express, 4-digit CVV', TEST_CARDS.amex, '1234', '00', 'Approved', '378282*****0005'],
    ['declined', TEST_CARDS.declined, '123', '05', 'Do not honor', '400000******0002'],
    [
      'insufficient funds',
      TEST_CARDS.insufficientFunds,
      '123',
      '51',
      'Insufficient funds',
      '400000******9995',
    ],
    ['expired card', TEST_CARDS.expiredCard, '123', '54', 'Expired card', '400000******0069'],
    ['CVV mismatch', TEST_CARDS.cvvMismatch, '123', 'N7', 'CVV2 mismatch', '400000******0127'],
    ['CVV mismatch card without a CVV', TEST_CARDS.cvvMismatch, '', '00', 'Approved', '400000******0127'],
  ])('sale with the %s test card', async (_name, number, cvv, code, message, masked) => {
    const r = await tx(card(number, '10.01', { CVV2: cvv, CustomValue1: 'order-17' }));
    expect(r).toMatchObject({
      ResponseCode: code,
      ResponseMessage: message,
      MaskedCardNumber: masked,
      CustomValue1: 'order-17',
    });
    expect(r.TransactionID).toMatch(/^[1-9]\d*$/); // declines are recorded too
    if (code === '00') expect(r.ApprovalCode).toMatch(/^[0-9A-Z]{6}$/);
    else expect(r.ApprovalCode).toBeUndefined();
    expect(JSON.stringify(r)).not.toContain(number);
  });

  it('partial approval: code 10, half the amount, said in ResponseMessageDetail', async () => {
    const r = await tx(card(TEST_CARDS.partialApproval, '10.01'));
    expect(r).toMatchObject({
      ResponseCode: '10',
      ResponseMessage: 'Partial approval',
      ResponseMessageDetail: 'Approved 5.00 of 10.01.',
    });
    expect(r.ApprovalCode).toMatch(/^[0-9A-Z]{6}$/);
  });

  it('3-D Secure card: 65 with the challenge URL, nothing recorded; not enrolled: 65, declined', async () => {
    const r = await tx(card(TEST_CARDS.threeDSecure, '25.00'));
    expect(r).toMatchObject({
      TransactionID: '0',
      ResponseCode: '65',
      ResponseMessage: 'Authentication required',
    });
    expect(r.ResponseMessageDetail).toMatch(
      new RegExp(`^${w.t.config.publicUrl}/3ds/challenge/[A-Za-z0-9_-]{24}$`),
    );
    const b = await tx(card(TEST_CARDS.threeDSecure, '25.00'), w.b);
    expect(b).toMatchObject({
      ResponseCode: '65',
      ResponseMessage: 'The card requires 3-D Secure, which this merchant does not use.',
    });
    expect(b.ResponseMessageDetail).toBeUndefined();
  });

  it.each([
    ['a card number failing Luhn', { CardNumber: '4242424242424241' }, '14'],
    ['an expiry in the past', { ExpirationDate: '01/20' }, '54'],
    ['an unreadable expiry', { ExpirationDate: '13/30' }, '14'],
    ['an Amex with a 3-digit CVV', { CardNumber: TEST_CARDS.amex, CVV2: '123' }, 'N7'],
    ['no card at all', { CardNumber: '' }, '30'],
    ['no expiry element', { ExpirationDate: undefined }, '30'],
    ['an empty expiry', { ExpirationDate: '' }, '30'],
    ['a zero amount', { Amount: '0' }, '13'],
    ['three decimals', { Amount: '1.005' }, '13'],
    ['an unknown TransactionType', { TransactionType: 'payout' }, '12'],
  ])('request problems answer a code, record nothing: %s → %s', async (_name, fields, code) => {
    const r = await tx(card(TEST_CARDS.visa, '5.00', fields));
    expect(r).toMatchObject({ TransactionID: '0', ResponseCode: code });
    expect(r.ResponseMessage).toBeTruthy();
  });

  it.each([
    ['00000', 'N'],
    ['12345', 'Y'],
    ['', 'U'],
  ])('AVS: ZIP %j → %s, approved either way', async (zip, avs) => {
    const r = await tx(card(TEST_CARDS.visa, '3.00', { Zip: zip }));
    expect(r).toMatchObject({ ResponseCode: '00', AvsResponseCode: avs });
    expect(r.AvsResponse).toBeTruthy();
  });

  it('auth, a partial capture, a capture of the rest, a third capture refused (13)', async () => {
    const auth = await tx(card(TEST_CARDS.visa, '100.00', { TransactionType: 'AUTH' }));
    expect(auth.ResponseCode).toBe('00');
    const first = await follow('capture', auth.TransactionID, { Amount: '40.00' });
    expect(first).toMatchObject({ ResponseCode: '00', ResponseMessage: 'Captured' });
    expect(first.TransactionID).not.toBe(auth.TransactionID);
    expect(await follow('capture', auth.TransactionID, { Amount: '60.01' })).toMatchObject({
      ResponseCode: '13',
      ResponseMessage: 'Amount is more than the 60.00 that remains.',
    });
    expect(await follow('Capture', auth.TransactionID)).toMatchObject({ ResponseCode: '00' }); // the rest
    expect(await follow('capture', auth.TransactionID)).toMatchObject({
      ResponseCode: '13',
      TransactionID: '0',
    });
    expect(await follow('capture', auth.TransactionID, { Amount: '0.01' })).toMatchObject({
      ResponseCode: '13',
    });
    // Captured money cannot be voided away; it is refunded (from the capture).
    expect(await follow('void', auth.TransactionID)).toMatchObject({ ResponseCode: '12' });
    expect(await follow('refund', first.TransactionID, { Amount: '10.00' })).toMatchObject({
      ResponseCode: '00',
    });
  });

  it('follow-ons name an original of this merchant, of the right kind', async () => {
    const sale = await tx(card(TEST_CARDS.visa, '9.00'));
    const declined = await tx(card(TEST_CARDS.declined, '9.00', { TransactionType: 'auth' }));
    expect(await follow('capture', '0')).toMatchObject({
      ResponseCode: '12',
      ResponseMessage: 'OriginalTransactionID is required for a capture.',
    });
    expect(await follow('capture', sale.TransactionID)).toMatchObject({
      ResponseCode: '12',
      ResponseMessage: 'Only an auth can be captured.',
    });
    expect(await follow('capture', declined.TransactionID)).toMatchObject({
      ResponseCode: '12',
      ResponseMessage: 'The original transaction was declined.',
    });
    expect(await follow('capture', '999999999')).toMatchObject({ ResponseCode: '12' });
    // Another merchant cannot touch it, and learns nothing but "not yours".
    const theirs = await tx({ TransactionType: 'refund', OriginalTransactionID: sale.TransactionID }, w.b);
    expect(theirs).toMatchObject({
      ResponseCode: '12',
      ResponseMessage: 'OriginalTransactionID does not name a transaction of this merchant.',
    });
  });

  it('void of an unsettled sale; then it cannot be voided again or refunded', async () => {
    const sale = await tx(card(TEST_CARDS.mastercard, '15.00'));
    expect(await follow('void', sale.TransactionID)).toMatchObject({
      ResponseCode: '00',
      ResponseMessage: 'Voided',
    });
    expect(await follow('void', sale.TransactionID)).toMatchObject({
      ResponseCode: '12',
      ResponseMessage: 'The original transaction was voided.',
    });
    expect(await follow('refund', sale.TransactionID)).toMatchObject({ ResponseCode: '12' });
    const auth = await tx(card(TEST_CARDS.visa, '15.00', { TransactionType: 'auth' }));
    expect(await follow('void', auth.TransactionID)).toMatchObject({ ResponseCode: '00' });
    expect(await follow('capture', auth.TransactionID)).toMatchObject({ ResponseCode: '12' });
  });

  it('refund in part, then the rest, then an over-refund refused (13)', async () => {
    const sale = await tx(card(TEST_CARDS.visa, '50.00'));
    expect(await follow('refund', sale.TransactionID, { Amount: '20.00' })).toMatchObject({
      ResponseCode: '00',
      ResponseMessage: 'Refunded',
    });
    expect(await follow('refund', sale.TransactionID, { Amount: '30.01' })).toMatchObject({
      ResponseCode: '13',
      ResponseMessage: 'Amount is more than the 30.00 that remains.',
    });
    expect(await follow('refund', sale.TransactionID, { Amount: '30.00' })).toMatchObject({
      ResponseCode: '00',
    });
    expect(await follow('refund', sale.TransactionID, { Amount: '0.01' })).toMatchObject({
      ResponseCode: '13',
    });
    expect(await follow('refund', sale.TransactionID, { Amount: '-5' })).toMatchObject({
      ResponseCode: '13',
    });
  });

  it('IsPartialRevesal keeps SettlementAmount authorised and gives the rest back', async () => {
    const auth = await tx(card(TEST_CARDS.visa, '80.00', { TransactionType: 'auth' }));
    const reverse = (amount: string) =>
      tx({
        TransactionType: 'auth',
        IsPartialRevesal: true,
        OriginalTransactionID: auth.TransactionID,
        SettlementAmount: amount,
      });
    expect(await reverse('80.01')).toMatchObject({ ResponseCode: '13' });
    expect(await reverse('80.00')).toMatchObject({
      ResponseCode: '13',
      ResponseMessage: 'Nothing to reverse: SettlementAmount keeps the whole authorisation.',
    });
    expect(await reverse('50.00')).toMatchObject({
      ResponseCode: '00',
      ResponseMessage: 'Partially reversed',
    });
    expect(await follow('capture', auth.TransactionID, { Amount: '50.01' })).toMatchObject({
      ResponseCode: '13',
    });
    expect(await follow('capture', auth.TransactionID, { Amount: '50.00' })).toMatchObject({
      ResponseCode: '00',
    });
    const sale = await tx(card(TEST_CARDS.visa, '5.00'));
    const onSale = await tx({
      IsPartialRevesal: true,
      OriginalTransactionID: sale.TransactionID,
      SettlementAmount: '1.00',
    });
    expect(onSale).toMatchObject({
      ResponseCode: '12',
      ResponseMessage: 'Only an auth can be partially reversed.',
    });
  });

  describe('ACH', () => {
    const ach = (account: string, fields: Record<string, unknown> = {}) => ({
      IsAchTransaction: true,
      Amount: '42.00',
      RoutingNumber: '011000015',
      AccountNumber: account,
      AccountType: 'checking',
      NameOnAccount: 'Jo Doe',
      ...fields,
    });

    it('an approved debit, masked, refundable', async () => {
      const r = await tx(ach(ACH_TEST_ACCOUNTS.approved));
      expect(r).toMatchObject({ ResponseCode: '00', MaskedCardNumber: '****6789' });
      expect(JSON.stringify(r)).not.toContain(ACH_TEST_ACCOUNTS.approved);
      expect(await follow('refund', r.TransactionID, { Amount: '2.00' })).toMatchObject({
        ResponseCode: '00',
      });
      expect(await tx(ach('000987654321', { AccountType: 'businessChecking' }))).toMatchObject({
        ResponseCode: '00',
      });
    });

    it.each([
      ['insufficient funds (R01)', ach(ACH_TEST_ACCOUNTS.insufficientFunds), 'R01'],
      [
        'a routing number failing its checksum',
        ach(ACH_TEST_ACCOUNTS.approved, { RoutingNumber: '011000016' }),
        '14',
      ],
      ['a 3-digit account number', ach('123'), '14'],
      ['an unknown account type', ach(ACH_TEST_ACCOUNTS.approved, { AccountType: 'brokerage' }), '12'],
      ['an auth', ach(ACH_TEST_ACCOUNTS.approved, { TransactionType: 'auth' }), '12'],
    ])('%s → %s', async (_name, fields, code) => {
      expect(await tx(fields)).toMatchObject({ ResponseCode: code });
    });
  });

  it('CreateToken, then pay by SaveCardID; another merchant cannot use the token', async () => {
    const first = await tx(card(TEST_CARDS.visa, '11.00', { CreateToken: true, CardName: 'Jo Doe' }));
    expect(first.ResponseCode).toBe('00');
    expect(first.Token).toMatch(/^tok_[A-Za-z0-9_-]{24}$/);
    const again = await tx({ SaveCardID: first.Token, Amount: '12.00' });
    expect(again).toMatchObject({ ResponseCode: '00', MaskedCardNumber: '424242******4242' });
    expect(again.TransactionID).not.toBe(first.TransactionID);
    expect(await tx({ SaveCardID: 'tok_nope', Amount: '1.00' })).toMatchObject({ ResponseCode: '14' });
    // B with its own id: the token is not B's. B with A's id: forbidden.
    expect(await tx({ SaveCardID: first.Token, Amount: '1.00' }, w.b)).toMatchObject({
      TransactionID: '0',
      ResponseCode: '14',
      ResponseMessage: 'SaveCardID does not name a stored card of this merchant.',
    });
    const forged = await rawCall(
      w.app,
      'ProcessTransaction',
      pay(w.a, { SaveCardID: first.Token, Amount: '1.00' }),
      w.b.as,
    );
    expect(forged.errorCode).toBe('forbidden');
    // A declined sale creates no token.
    expect((await tx(card(TEST_CARDS.declined, '1.00', { CreateToken: true }))).Token).toBeUndefined();
  });
});
