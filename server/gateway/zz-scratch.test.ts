import { it } from 'vitest';
import { databaseTargets } from '../testing/databases.ts';
import { call, card, openWorld, pay, rawCall } from './testing/gateway-kit.ts';
import { TEST_CARDS } from './processor/simulator.ts';

it('explore', async () => {
  const w = await openWorld(databaseTargets()[0]!);
  const { app, a, b } = w;
  const show = (x: unknown) => console.log(JSON.stringify(x));
  for (const [name, pan] of Object.entries(TEST_CARDS)) {
    show([name, await call(app, 'ProcessTransaction', pay(a, card(pan, '10.01', { CVV2: name === 'amex' ? '1234' : '123', Zip: '12345' })), a.as)]);
  }
  show(await call(app, 'ProcessTransaction', pay(a, card(TEST_CARDS.visa, '10.00', { Zip: '00000' })), a.as));
  show(await rawCall(app, 'ProcessTransaction', pay(a, card(TEST_CARDS.visa, '10.00')), b.as));
  show(await rawCall(app, 'ProcessTransaction', pay(a, card(TEST_CARDS.visa, '10.00')), { merchantId: a.id, key: 'nope' }));
  show(await rawCall(app, 'ProcessTransaction', pay(a, card(TEST_CARDS.visa, '10.00')), null));
  show(await call(app, 'GetTransactionHistories', { startDate: '2020-01-01', endDate: '2030-01-01', merchantID: a.id }, a.as).catch(e=>String(e)));
  show(await call(app, 'GetTransactionHistories', { startDate: '2025-01-01T00:00:00', endDate: '2025-12-31T00:00:00', merchantID: a.id }, a.as).catch(e=>String(e)));
  await w.close();
});
