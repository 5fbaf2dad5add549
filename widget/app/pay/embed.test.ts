import { describe, expect, it } from 'vitest';
import { EmbedMessage, EmbedMessageV1 } from '../../../shared/checkout/embed-messages.ts';
import { messageFor, type Payload, successMessage } from './embed.ts';

const PAYLOADS: readonly Payload[] = [
  { type: 'ready', lang: 'es' },
  successMessage(
    { transactionId: '1001', orderNumber: 'A-1', amount: '25.00', currency: 'USD' },
    'succeeded',
  ),
  {
    type: 'error',
    data: { code: 'declined', message: 'Declined.', currency: 'USD', declineCode: 'insufficient_funds' },
  },
  { type: 'cancel', data: { reason: 'canceled', sessionOpen: false } },
  { type: 'expired' },
  { type: 'escape' },
  { type: 'resize', height: 640 },
];

describe('embed messages by version', () => {
  it.each(PAYLOADS.map((p) => [p.type, p] as const))(
    '%s: version 2 is the current shape, version 1 the shape older loaders check key for key',
    (_type, payload) => {
      const v2 = messageFor(2, 'abc', payload);
      expect(EmbedMessage.safeParse(v2).success).toBe(true);
      expect(EmbedMessageV1.safeParse(v2).success).toBe(false);
      const v1 = messageFor(1, 'abc', payload);
      expect(EmbedMessageV1.safeParse(v1).success).toBe(true);
      expect(EmbedMessage.safeParse(v1).success).toBe(false);
    },
  );

  it.each(['expired', 'canceled', 'unavailable', 'invalid_theme'] as const)(
    'loaderror %s is sent in version 2 only (version 1 had no such message)',
    (reason) => {
      const payload: Payload = { type: 'loaderror', data: { reason } };
      expect(EmbedMessage.parse(messageFor(2, 'abc', payload))).toEqual({
        source: 'payframe',
        v: 2,
        instance: 'abc',
        type: 'loaderror',
        data: { reason },
      });
      expect(messageFor(1, 'abc', payload)).toBeNull();
    },
  );

  it('version 1 keeps what version 1 said', () => {
    expect(messageFor(1, '', PAYLOADS[1]!)).toEqual({
      source: 'payframe',
      v: 1,
      instance: '',
      type: 'success',
      data: { transactionId: '1001', orderNumber: 'A-1', amount: '25.00', status: 'succeeded' },
    });
    expect(messageFor(1, '', PAYLOADS[0]!)).toEqual({
      source: 'payframe',
      v: 1,
      instance: '',
      type: 'ready',
    });
  });
});
