/**
 * SendVerificationCode (DESIGN.md §9; security-requirements.md §4; docs/gateway-wallet-codes.md
 * "One-time codes"). The gateway makes the codes and keeps nothing; the checkout server stores their
 * hashes, delivers them and checks what the shopper types.
 *
 * Only the checkout server's credential may call it (a merchant is `forbidden`, nobody else gets past
 * 401), so a code never reaches anyone else. Each element of the answer is a fresh 6-digit code when
 * that contact holds a card in the wallet, and empty otherwise — the checkout server must know whom
 * to send to, since codes go only to contacts on file (OTP-8), and it already may list the wallet.
 * What does reach an untrusted party is the checkout API's latency, which includes this call's: so
 * every call does the same work (OTP-7) — the same one query, both codes drawn — whatever is known.
 */
import crypto from 'node:crypto';
import type { OperationParams, OperationResult } from '../../../shared/contract/service.ts';
import type { GatewayCall, GatewayDeps } from '../gateway-call.ts';
import { knownContacts } from '../wallet/wallet-store.ts';
import { requireService, shopperContacts } from './wallet-operations.ts';

/** Six digits, uniformly from node's CSPRNG (OTP-1: never Math.random). */
export function oneTimeCode(): string {
  return String(crypto.randomInt(0, 1_000_000)).padStart(6, '0');
}

export async function sendVerificationCode(
  params: OperationParams<'SendVerificationCode'>,
  call: GatewayCall,
  deps: GatewayDeps,
): Promise<OperationResult<'SendVerificationCode'>> {
  requireService(call.principal, 'SendVerificationCode');
  const contacts = shopperContacts(params.email, params.phoneNumber);
  // The same work on every path: both codes drawn, one query of one shape.
  const codes = { email: oneTimeCode(), phone: oneTimeCode() };
  const known = await knownContacts(deps.db, contacts, deps.now());
  return {
    OneTimePasswordForPhone: known.phone ? codes.phone : '',
    OneTimePasswordForEmail: known.email ? codes.email : '',
  };
}
