/**
 * GetMerchantSettings and UpdateMerchantSettings (settings-operations.ts) through the real SOAP
 * endpoint, on every database target: a merchant reads its own settings and an Owner or Admin replaces them
 * (never its TransactionKey: forbidden); every value
 * is checked (a refused one names its field and nothing is saved); a new session and the widget's
 * frame-ancestors use the change at once (the cache forgets the merchant); a Viewer reads but its
 * change is refused and recorded as operation.UpdateMerchantSettings; an Admin's change is recorded.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OperationResult } from '../../../shared/contract/service.ts';
import type { ValueOf } from '../../../shared/contract/values.ts';
import { databaseTargets } from '../../../test/kit/databases.ts';
import { call, SHOP_ORIGIN } from '../../../test/kit/gateway/gateway-kit.ts';
import { soapCall } from '../../../test/kit/gateway/soap-call.ts';
import { ANN, openUsersWorld, type UsersWorld } from '../../../test/kit/gateway/users-world.ts';
import { totpCode } from '../users/totp.ts';
import { findUserByName } from '../users/user-store.ts';
import type { UserRole } from '../user-roles.ts';

type Input = ValueOf<'MerchantSettingsInput'>;
type Result = OperationResult<'UpdateMerchantSettings'>;

const NEW_ORIGIN = 'https://store.alpha.example';

describe.each(databaseTargets())('Merchant settings ($name)', (target) => {
  let w: UsersWorld;
  let owner: string; // an Owner's verified session: the settings change only through a user
  beforeAll(async () => {
    w = await openUsersWorld(target);
    owner = await signedIn('oli.owner', 'owner');
  });
  afterAll(() => w.close());

  const get = () => call(w.app, 'GetMerchantSettings', {}, w.a.as);
  const update = (settings: Input): Promise<Result> =>
    call(w.app, 'UpdateMerchantSettings', { settings }, { bearer: owner });
  /** The settings as they are, as an input to change from. */
  const current = async (): Promise<Input> => {
    const { MerchantID: _, ...rest } = await get();
    return rest as Input;
  };
  async function signedIn(username: string, role: UserRole): Promise<string> {
    await w.newUser(username, undefined, role);
    const login = await w.login(username, ANN.password);
    const token = login.Data!;
    const setup = (await soapCall(w.app, 'BeginSecondFactorEnrolment', {}, { bearer: token })).result as {
      SetupKey: string;
    };
    await soapCall(
      w.app,
      'VerifySecondFactor',
      { code: totpCode(setup.SetupKey, w.clock.now) },
      { bearer: token },
    );
    return token;
  }

  it("answers the merchant's own settings", async () => {
    const s = await get();
    expect(s).toMatchObject({
      MerchantID: w.a.id,
      DisplayName: 'Alpha Outfitters',
      SupportEmail: 'billing@alpha-outfitters.example',
      NameOnCardRequired: false,
      ReturnMode: 'Immediate',
      AcceptsCard: true,
      AcceptsAch: true,
      Origins: [SHOP_ORIGIN],
    });
    expect(s.BrandColor).toBeUndefined();
    expect(s.CornerRadius).toBeUndefined();
    expect((await call(w.app, 'GetMerchantSettings', {}, w.b.as)).DisplayName).toBe('Bravo Bikes');
  });

  it('saves the whole settings; a new session and the widget frame use them at once', async () => {
    // A session read first, so the gateway's cache holds the merchant as it was.
    const before = await call(
      w.app,
      'CreateHostedPayment',
      { request: { MerchantID: w.a.id, Amount: '10.00', OrderNumber: 'S-0' } },
      w.a.as,
    );
    expect(
      (await call(w.app, 'GetCheckoutSession', { token: before.Token! }, w.a.as)).BrandColor,
    ).toBeUndefined();

    const r = await update({
      ...(await current()),
      DisplayName: 'Alpha Outdoor',
      Website: 'https://alpha.example',
      LogoUrl: 'https://cdn.alpha.example/logo.png',
      BrandColor: '#0A7C4B',
      CornerRadius: 12,
      NameOnCardRequired: true,
      ReturnMode: 'Confirmation',
      AcceptsAch: false,
      Origins: [SHOP_ORIGIN, `${NEW_ORIGIN}/`],
    });
    expect(r.Success).toBe(true);
    expect(r.Settings).toMatchObject({
      DisplayName: 'Alpha Outdoor',
      BrandColor: '#0a7c4b', // kept in lower case
      CornerRadius: 12,
      ReturnMode: 'Confirmation',
      AcceptsCard: true,
      AcceptsAch: false,
      Origins: [SHOP_ORIGIN, NEW_ORIGIN], // canonical, as a ReturnUrl's origin
    });
    expect(await get()).toEqual(r.Settings);

    const made = await call(
      w.app,
      'CreateHostedPayment',
      {
        request: { MerchantID: w.a.id, Amount: '10.00', OrderNumber: 'S-1', ReturnUrl: `${NEW_ORIGIN}/done` },
      },
      w.a.as,
    );
    expect(made.Success).toBe(true);
    const session = await call(w.app, 'GetCheckoutSession', { token: made.Token! }, w.a.as);
    expect(session).toMatchObject({
      MerchantName: 'Alpha Outdoor',
      BrandColor: '#0a7c4b',
      CornerRadius: 12,
      NameOnCardRequired: true,
      AcceptsAch: false,
      ReturnMode: 'Confirmation',
    });
    const page = await w.app.inject({ method: 'GET', url: `/pay/${made.Token!}?embed=1` });
    expect(page.headers['content-security-policy']).toContain(`frame-ancestors ${SHOP_ORIGIN} ${NEW_ORIGIN}`);

    // An origin removed no longer frames the widget, nor takes a ReturnUrl.
    expect((await update({ ...(await current()), Origins: [SHOP_ORIGIN] })).Success).toBe(true);
    const again = await w.app.inject({ method: 'GET', url: `/pay/${made.Token!}?embed=1` });
    expect(again.headers['content-security-policy']).toContain(`frame-ancestors ${SHOP_ORIGIN};`);
    const refused = await call(
      w.app,
      'CreateHostedPayment',
      {
        request: { MerchantID: w.a.id, Amount: '10.00', OrderNumber: 'S-2', ReturnUrl: `${NEW_ORIGIN}/done` },
      },
      w.a.as,
    );
    expect(refused.Success).toBe(false);
  });

  it.each([
    ['BrandColor', { BrandColor: 'green' }, 'BrandColor must be a colour written #RRGGBB.'],
    ['BrandColor', { BrandColor: '#12345' }, 'BrandColor must be a colour written #RRGGBB.'],
    ['CornerRadius', { CornerRadius: 25 }, 'CornerRadius must be a whole number of pixels from 0 to 24.'],
    ['CornerRadius', { CornerRadius: -1 }, 'CornerRadius must be a whole number of pixels from 0 to 24.'],
    ['LogoUrl', { LogoUrl: 'http://cdn.alpha.example/logo.png' }, 'LogoUrl must be an https URL.'],
    ['Website', { Website: 'javascript:alert(1)' }, 'Website must be an https URL.'],
    ['DisplayName', { DisplayName: '   ' }, 'DisplayName must be 1 to 200 characters.'],
    // Latin and Cyrillic in one word: a look-alike of another business's name.
    ['DisplayName', { DisplayName: 'Pаypal Shop' }, 'DisplayName '],
    ['SupportEmail', { SupportEmail: 'not an address' }, 'SupportEmail must be an e-mail address'],
    ['ReturnMode', { ReturnMode: 'Sometimes' }, "ReturnMode must be 'Immediate' or 'Confirmation'."],
    ['AcceptsCard', { AcceptsCard: false, AcceptsAch: false }, 'at least one payment method'],
    ['Origins', { Origins: [SHOP_ORIGIN, 'ftp://alpha.example'] }, 'Origins "ftp://alpha.example"'],
    ['Origins', { Origins: ['https://alpha.example/checkout'] }, 'Origins "https://alpha.example/checkout"'],
  ] as const)('refuses a wrong %s, naming it, and saves nothing (%j)', async (field, wrong, message) => {
    const was = await get();
    const r = await update({ ...(await current()), DisplayName: 'Changed Too', ...wrong } as Input);
    expect(r.Success).toBe(false);
    expect(r.ErrorField).toBe(field);
    expect(r.Message).toContain(message);
    expect(r.Settings).toEqual(was);
    expect(await get()).toEqual(was);
  });

  it('refuses a display name with a bidi control at the door, naming the element, and saves nothing', async () => {
    const was = await get();
    const r = await soapCall(
      w.app,
      'UpdateMerchantSettings',
      { settings: { ...(await current()), DisplayName: 'Alpha\u202EShop' } },
      { bearer: owner },
    );
    expect(r.status).toBe(500);
    expect(r.body).toContain(
      "Element 'settings/DisplayName' must not contain characters that change the text direction.",
    );
    expect(await get()).toEqual(was);
  });

  it('refuses a change with the TransactionKey (forbidden): only a verified user changes them', async () => {
    const was = await get();
    const r = await soapCall(
      w.app,
      'UpdateMerchantSettings',
      { settings: { ...(await current()), DisplayName: 'Changed By Key' } },
      w.a.as,
    );
    expect(r.status).not.toBe(200);
    expect(r.body).toContain('forbidden');
    expect(await get()).toEqual(was);
  });

  it("lets a Viewer read the settings, refuses its change (recorded), and records an Admin's", async () => {
    const viewer = await signedIn('vic.viewer', 'viewer');
    const admin = await signedIn('ada.admin', 'admin');
    const read = await soapCall(w.app, 'GetMerchantSettings', {}, { bearer: viewer });
    expect(read.status).toBe(200);
    const was = read.result as Record<string, unknown>;
    const settings = { ...(await current()), BrandColor: '#112233' };

    const refused = await soapCall(w.app, 'UpdateMerchantSettings', { settings }, { bearer: viewer });
    expect(refused.status).not.toBe(200);
    expect(refused.body).toContain('forbidden');
    expect(refused.body).toContain('needs the Admin role or higher');
    expect(await get()).toEqual(was);

    const done = await soapCall(w.app, 'UpdateMerchantSettings', { settings }, { bearer: admin });
    expect(done.status).toBe(200);
    expect((await get()).BrandColor).toBe('#112233');

    const audit = async (username: string) => {
      const user = await findUserByName(w.db, username);
      const { rows } = await w.db.query<{ action: string; outcome: string; detail: Record<string, unknown> }>(
        `select action, outcome, detail from audit_events where actor = $1 and action like 'operation.%' order by id`,
        [`merchant_user:${user!.id}`],
      );
      return rows.map((r) => ({
        ...r,
        detail: typeof r.detail === 'string' ? (JSON.parse(r.detail) as unknown) : r.detail,
      }));
    };
    expect(await audit('vic.viewer')).toMatchObject([
      { action: 'operation.UpdateMerchantSettings', outcome: 'failure', detail: { error: 'forbidden' } },
    ]);
    expect(await audit('ada.admin')).toMatchObject([
      { action: 'operation.UpdateMerchantSettings', outcome: 'success', detail: { Success: true } },
    ]);
  });
});
