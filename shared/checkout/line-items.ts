/**
 * What a checkout session sells (issue 14 §4): an optional description and line items, shown above
 * the amount. The rules, once, for the REST schema and the gateway's session store (which every
 * other writer — SOAP's CreateHostedPayment, the CLI — goes through). Money in cents, never floats.
 * Pure: no zod, no Node or DOM.
 */
import { toCents } from '../money.ts';

export const MAX_DESCRIPTION = 500;
export const MAX_LINE_ITEMS = 100;
export const MAX_LINE_ITEM_NAME = 200;
export const MAX_QUANTITY = 10_000;

export interface LineItem {
  name: string;
  /** A whole number, 1–10,000. */
  quantity: number;
  /** A decimal string, zero or more, at most two decimals. */
  unitAmount: string;
}

export type LineItemsProblem =
  | { code: 'too_many'; message: string }
  | { code: 'invalid'; index: number; message: string }
  | { code: 'line_items_total'; message: string };

/** The first problem of a list of line items against the session's amount; null when it is right. */
export function lineItemsProblem(items: readonly LineItem[], amountCents: bigint): LineItemsProblem | null {
  if (items.length > MAX_LINE_ITEMS)
    return { code: 'too_many', message: `lineItems has at most ${MAX_LINE_ITEMS} items.` };
  let total = 0n;
  for (const [index, item] of items.entries()) {
    const at = `lineItems[${index}]`;
    if (!item.name.trim() || item.name.length > MAX_LINE_ITEM_NAME)
      return { code: 'invalid', index, message: `${at}.name must be 1–${MAX_LINE_ITEM_NAME} characters.` };
    if (!Number.isInteger(item.quantity) || item.quantity < 1 || item.quantity > MAX_QUANTITY)
      return { code: 'invalid', index, message: `${at}.quantity must be a whole number, 1–${MAX_QUANTITY}.` };
    let cents: bigint;
    try {
      cents = toCents(item.unitAmount);
    } catch {
      return {
        code: 'invalid',
        index,
        message: `${at}.unitAmount must be an amount with at most two decimals.`,
      };
    }
    if (cents < 0n) return { code: 'invalid', index, message: `${at}.unitAmount must not be negative.` };
    total += cents * BigInt(item.quantity);
  }
  if (items.length > 0 && total !== amountCents)
    return {
      code: 'line_items_total',
      message: 'lineItems must add up to the amount (quantity × unitAmount).',
    };
  return null;
}
