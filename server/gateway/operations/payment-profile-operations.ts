/**
 * CreatePaymentProfile, UpdatePaymentProfile, DelelePaymentProfile (the interface's spelling),
 * GetCustomerPaymentProfile and GetCustomerPaymentProfileList (spec "PaymentProfileRequest",
 * "CustomerProfileResponse"; DESIGN.md "What the spec leaves open"): a customer's stored cards at one
 * merchant. Rules and ResultCodes: docs/gateway-profiles-invoices.md.
 *
 * Acting with another MerchantId is the usual `forbidden` fault (actOn); a profile of another
 * merchant or customer is `NotFound`, never forbidden, so its existence is not revealed. The card
 * goes through the vault; answers carry it masked (at most first six + last four, PCI-341-1).
 */
import type { Expiry } from '../../../shared/card/expiry.ts';
import type { OperationParams, OperationResult } from '../../../shared/contract/service.ts';
import type { ValueOf } from '../../../shared/contract/values.ts';
import { PayframeError } from '../../errors.ts';
import { actOn } from '../auth.ts';
import type { GatewayCall, GatewayDeps } from '../gateway-call.ts';
import {
  createProfile,
  deleteProfile,
  findProfileByFingerprint,
  getProfile,
  listProfiles,
  type PaymentProfile,
  type ProfileOwner,
  updateProfile,
} from '../profiles/payment-profile-store.ts';
import { validateCard } from '../vault/card-checks.ts';

/** ResultCode values of PaymentProfileResponse and CustomerProfileResponse. */
export const PROFILE_RESULT_CODES = {
  Ok: 'Done.',
  NotFound: 'No active payment profile of this customer has this PaymentProfileId.',
  InvalidCard: 'The card number is not valid: check its digits.',
  InvalidExpiry:
    'The expiry is not valid: CardExpirationMonth must be 1 to 12 and CardExpirationYear a year (YYYY, or YY for 20YY) at most 20 years ahead.',
  Expired: 'The card has expired: its expiry month is over.',
  Duplicate: 'This card number is already a payment profile of this customer; update that profile instead.',
  InvalidRequest: 'The request is not valid.',
} as const;
export type ProfileResultCode = keyof typeof PROFILE_RESULT_CODES;

type ProfileResponse = ValueOf<'PaymentProfileResponse'>;
type CustomerProfile = ValueOf<'CustomerProfileResponse'>;

/** A failure a merchant can act on, answered as ResultCode + Message (never a fault). */
class ProfileProblem extends Error {
  constructor(
    readonly resultCode: Exclude<ProfileResultCode, 'Ok'>,
    message: string = PROFILE_RESULT_CODES[resultCode],
    readonly paymentProfileId?: string,
  ) {
    super(message);
  }
}

const NAME_MAX = 100;

/** The merchant the call acts on: the caller's own id only (auth.ts actOn), and only a merchant. */
function ownerMerchant(call: GatewayCall, merchantId: string): string {
  const id = actOn(call.principal, merchantId);
  if (call.principal.kind !== 'merchant') {
    throw new PayframeError('forbidden', 'Only a merchant may manage payment profiles.');
  }
  return id;
}

function customerIdOf(value: string | null | undefined): string {
  if (!value || !/^[1-9]\d*$/.test(value)) {
    throw new ProfileProblem('InvalidRequest', 'CustomerId must be a number greater than zero.');
  }
  return value;
}

function profileIdOf(value: string | null | undefined): string {
  const id = value?.trim() ?? '';
  if (!id) throw new ProfileProblem('InvalidRequest', 'PaymentProfileId is required.');
  return id;
}

/** NameOnCard without control or bidi-override characters; empty or absent: null. */
function nameOf(value: string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  // eslint-disable-next-line no-control-regex -- stripping control characters is the point.
  const cleaned = value.replace(/[\u0000-\u001f\u007f\u202a-\u202e\u2066-\u2069]/g, '').trim();
  if (cleaned.length > NAME_MAX) {
    throw new ProfileProblem('InvalidRequest', `NameOnCard must be at most ${NAME_MAX} characters.`);
  }
  return cleaned || null;
}

/** Expiry from the two ints; a two-digit year is 20YY. */
function expiryOf(month: number, year: number): Expiry {
  return { month, year: year >= 0 && year < 100 ? 2000 + year : year };
}

/** The card checked as card-checks.ts checks any card; failures become ResultCodes. */
function checkedCard(number: string, expiry: Expiry, now: Date): { pan: string } {
  // A long on the wire: only digits are a card number (validateCard would allow spaces and dashes).
  if (!/^\d+$/.test(number)) throw new ProfileProblem('InvalidCard');
  const checked = validateCard({ number, expiry }, now);
  if (checked.ok) return { pan: checked.pan };
  if (checked.reason === 'expired') throw new ProfileProblem('Expired');
  if (checked.reason === 'invalid_expiry') throw new ProfileProblem('InvalidExpiry');
  throw new ProfileProblem('InvalidCard');
}

function duplicate(existing: PaymentProfile | null): ProfileProblem {
  const message = existing
    ? `This card number is already payment profile ${existing.id} of this customer; update that profile instead.`
    : PROFILE_RESULT_CODES.Duplicate;
  return new ProfileProblem('Duplicate', message, existing?.id);
}

/** Runs an operation, answering a ProfileProblem as its ResultCode and Message. */
async function answer<R>(run: () => Promise<R>, failed: (p: ProfileProblem) => R): Promise<R> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof ProfileProblem) return failed(err);
    throw err;
  }
}

const profileFailure = (p: ProfileProblem): ProfileResponse => ({
  PaymentProfileId: p.paymentProfileId,
  ResultCode: p.resultCode,
  Message: p.message,
});

type ProfileRequest = ValueOf<'PaymentProfileRequest'>;

function requestOf(r: ProfileRequest | null | undefined): ProfileRequest {
  if (!r) throw new ProfileProblem('InvalidRequest', 'The paymentProfileRequest element is required.');
  return r;
}

export async function createPaymentProfile(
  params: OperationParams<'CreatePaymentProfile'>,
  call: GatewayCall,
  deps: GatewayDeps,
): Promise<OperationResult<'CreatePaymentProfile'>> {
  return answer(async () => {
    const r = requestOf(params.paymentProfileRequest);
    const owner: ProfileOwner = {
      merchantId: ownerMerchant(call, r.MerchantId),
      customerId: customerIdOf(r.CustomerId),
    };
    const name = nameOf(r.NameOnCard);
    const expiry = expiryOf(r.CardExpirationMonth, r.CardExpirationYear);
    const { pan } = checkedCard(r.CardNumber, expiry, deps.now());
    // Refuse a duplicate before vaulting, so a refused request stores nothing.
    const existing = await findProfileByFingerprint(deps.db, owner, deps.vault.fingerprint(pan));
    if (existing) throw duplicate(existing);
    const card = await deps.vault.store(deps.db, {
      number: pan,
      expMonth: expiry.month,
      expYear: expiry.year,
    });
    const outcome = await createProfile(deps.db, owner, card, name);
    if ('duplicateOf' in outcome) throw duplicate(outcome.duplicateOf);
    return { PaymentProfileId: outcome.created.id, ResultCode: 'Ok', Message: 'Payment profile created.' };
  }, profileFailure);
}

/**
 * Changes a profile. CardNumber `0` keeps the card number; CardExpirationMonth and
 * CardExpirationYear both `0` keep the expiry; an empty or absent NameOnCard keeps the name. A new
 * number or expiry is a new vault card; the PaymentProfileId stays.
 */
export async function updatePaymentProfile(
  params: OperationParams<'UpdatePaymentProfile'>,
  call: GatewayCall,
  deps: GatewayDeps,
): Promise<OperationResult<'UpdatePaymentProfile'>> {
  return answer(async () => {
    const r = requestOf(params.paymentProfileRequest);
    const owner: ProfileOwner = {
      merchantId: ownerMerchant(call, r.MerchantId),
      customerId: customerIdOf(r.CustomerId),
    };
    const id = profileIdOf(r.PaymentProfileId);
    const name = nameOf(r.NameOnCard);
    const profile = await getProfile(deps.db, owner, id);
    if (!profile) throw new ProfileProblem('NotFound');
    const current = await deps.vault.get(deps.db, profile.cardId);
    if (!current) throw new Error(`Payment profile ${profile.id} points at a missing card.`);

    const keepNumber = r.CardNumber === '0';
    const keepExpiry = r.CardExpirationMonth === 0 && r.CardExpirationYear === 0;
    let card = current;
    if (!keepNumber || !keepExpiry) {
      const expiry = keepExpiry
        ? { month: current.expMonth, year: current.expYear }
        : expiryOf(r.CardExpirationMonth, r.CardExpirationYear);
      // Re-vaulting the same number under a new expiry needs it in the clear, in this process only.
      const number = keepNumber ? await deps.vault.reveal(deps.db, current.id) : r.CardNumber;
      const { pan } = checkedCard(number, expiry, deps.now());
      const other = await findProfileByFingerprint(deps.db, owner, deps.vault.fingerprint(pan));
      if (other && other.id !== profile.id) throw duplicate(other);
      card = await deps.vault.store(deps.db, {
        number: pan,
        expMonth: expiry.month,
        expYear: expiry.year,
      });
    }
    const outcome = await updateProfile(
      deps.db,
      profile,
      { card, nameOnCard: name ?? profile.nameOnCard },
      deps.now(),
    );
    if (outcome === 'not_found') throw new ProfileProblem('NotFound');
    if (outcome === 'duplicate')
      throw duplicate(await findProfileByFingerprint(deps.db, owner, card.fingerprint));
    return { PaymentProfileId: profile.id, ResultCode: 'Ok', Message: 'Payment profile updated.' };
  }, profileFailure);
}

/** Deletes a profile (soft: it is NotFound afterwards). CardNumber and the expiry are not looked at. */
export async function delelePaymentProfile(
  params: OperationParams<'DelelePaymentProfile'>,
  call: GatewayCall,
  deps: GatewayDeps,
): Promise<OperationResult<'DelelePaymentProfile'>> {
  return answer(async () => {
    const r = requestOf(params.paymentProfileRequest);
    const owner: ProfileOwner = {
      merchantId: ownerMerchant(call, r.MerchantId),
      customerId: customerIdOf(r.CustomerId),
    };
    const id = profileIdOf(r.PaymentProfileId);
    if (!(await deleteProfile(deps.db, owner, id, deps.now()))) throw new ProfileProblem('NotFound');
    return { PaymentProfileId: id, ResultCode: 'Ok', Message: 'Payment profile deleted.' };
  }, profileFailure);
}

/** A profile as CustomerProfileResponse: the card masked, never its number. */
async function profileAnswer(
  deps: GatewayDeps,
  profile: PaymentProfile,
  message: string,
): Promise<CustomerProfile> {
  const card = await deps.vault.get(deps.db, profile.cardId);
  if (!card) throw new Error(`Payment profile ${profile.id} points at a missing card.`);
  return {
    CustomerId: profile.customerId,
    ResultCode: 'Ok',
    Message: message,
    PaymentProfileId: profile.id,
    CardNumber: card.masked,
    NameOnCard: profile.nameOnCard ?? undefined,
    CardExpirationMonth: String(card.expMonth).padStart(2, '0'),
    CardExpirationYear: String(card.expYear),
    CardType: card.brand,
  };
}

export async function getCustomerPaymentProfile(
  params: OperationParams<'GetCustomerPaymentProfile'>,
  call: GatewayCall,
  deps: GatewayDeps,
): Promise<OperationResult<'GetCustomerPaymentProfile'>> {
  const r = params.customerProfileRequest;
  const customerEcho = r?.CustomerId ?? '0';
  return answer(
    async () => {
      if (!r) throw new ProfileProblem('InvalidRequest', 'The customerProfileRequest element is required.');
      const owner: ProfileOwner = {
        merchantId: ownerMerchant(call, r.MerchantId),
        customerId: customerIdOf(r.CustomerId),
      };
      const id = r.PaymentProfileId?.trim();
      if (!id) {
        throw new ProfileProblem(
          'InvalidRequest',
          "PaymentProfileId is required; GetCustomerPaymentProfileList lists all of a customer's profiles.",
        );
      }
      const profile = await getProfile(deps.db, owner, id);
      if (!profile) throw new ProfileProblem('NotFound');
      return profileAnswer(deps, profile, 'Payment profile found.');
    },
    (p): CustomerProfile => ({ CustomerId: customerEcho, ResultCode: p.resultCode, Message: p.message }),
  );
}

/** The customer's active profiles, oldest first; an empty list when there are none. */
export async function getCustomerPaymentProfileList(
  params: OperationParams<'GetCustomerPaymentProfileList'>,
  call: GatewayCall,
  deps: GatewayDeps,
): Promise<OperationResult<'GetCustomerPaymentProfileList'>> {
  const merchantId = ownerMerchant(call, params.merchantID);
  if (!/^[1-9]\d*$/.test(params.customerID)) {
    throw new PayframeError('invalid_request', 'customerID must be a number greater than zero.');
  }
  const profiles = await listProfiles(deps.db, { merchantId, customerId: params.customerID });
  const answers: CustomerProfile[] = [];
  for (const p of profiles) answers.push(await profileAnswer(deps, p, 'Payment profile found.'));
  return answers;
}

/** The handlers of this file, to be merged into GATEWAY_HANDLERS (gateway.ts). */
export const PAYMENT_PROFILE_HANDLERS = {
  CreatePaymentProfile: createPaymentProfile,
  UpdatePaymentProfile: updatePaymentProfile,
  DelelePaymentProfile: delelePaymentProfile,
  GetCustomerPaymentProfile: getCustomerPaymentProfile,
  GetCustomerPaymentProfileList: getCustomerPaymentProfileList,
} as const;
