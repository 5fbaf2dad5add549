/**
 * US bank account (ACH) numbers: the one rule for the widget's form, the checkout API's schema, the
 * Transaction Service and the processor simulator. Pure: no Node or DOM imports.
 */

/**
 * Valid first two digits of an ABA routing number: Federal Reserve districts 01–12 (00, the US
 * Government), thrift institutions 21–32, electronic transactions 61–72, traveler's cheques 80.
 */
function abaPrefixValid(prefix: number): boolean {
  return prefix <= 12 || (prefix >= 21 && prefix <= 32) || (prefix >= 61 && prefix <= 72) || prefix === 80;
}

/**
 * A US ABA routing number: nine digits, a valid prefix, and the 3-7-1 weighted checksum a multiple
 * of 10, as banks compute it. Surrounding spaces are ignored; nothing else is.
 */
export function abaRoutingValid(routing: string): boolean {
  const r = routing.trim();
  if (!/^\d{9}$/.test(r) || r === '000000000' || !abaPrefixValid(Number(r.slice(0, 2)))) return false;
  const weights = [3, 7, 1];
  let sum = 0;
  for (let i = 0; i < 9; i++) sum += (r.charCodeAt(i) - 48) * weights[i % 3]!;
  return sum % 10 === 0;
}

/** A bank account number: 4 to 17 digits (NACHA's DFI account number field is 17 characters). */
export const BANK_ACCOUNT_NUMBER_PATTERN = /^\d{4,17}$/;

export function bankAccountNumberValid(account: string): boolean {
  return BANK_ACCOUNT_NUMBER_PATTERN.test(account.trim());
}
