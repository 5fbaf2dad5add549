/**
 * The TransactionKey from the dashboard's Developers page (issue 16): RollTransactionKey issues a
 * new key, answered this once, and keeps the one it replaces working for the chosen overlap;
 * GetTransactionKeyStatus says when each key last authenticated and when the overlap ends, never a
 * key. Both are the Owner's (user-roles.ts). docs/merchant-guide.md "Rolling your TransactionKey"
 * says what a merchant gets during an overlap.
 *
 * Rolling again during an overlap: the key in use becomes the previous one (with the new overlap)
 * and the key the earlier roll kept stops at once; a roll with the overlap None ends both old keys.
 */
import type { TransactionKeyOverlap } from '../../../shared/contract/dashboard-developers.ts';
import type { OperationParams, OperationResult } from '../../../shared/contract/service.ts';
import { PayframeError } from '../../errors.ts';
import type { GatewayCall, GatewayDeps } from '../gateway-call.ts';
import { keyIdOf } from '../merchants/key-uses.ts';

export const OVERLAP_MS: Record<TransactionKeyOverlap, number> = {
  None: 0,
  OneHour: 60 * 60 * 1000,
  TwentyFourHours: 24 * 60 * 60 * 1000,
};

/**
 * The merchant of a signed-in dashboard user (its role checked before: Owner). A merchant's own
 * TransactionKey is refused: whoever holds a leaked key must not be able to swap it for one the
 * merchant does not have, nor end the merchant's own key.
 */
function merchantOf(call: GatewayCall, operation: string): string {
  if (call.principal.kind !== 'merchant' || !call.principal.user)
    throw new PayframeError(
      'forbidden',
      `${operation} is for the merchant's Owner, signed in to the dashboard.`,
    );
  return call.principal.merchantId;
}

export async function rollTransactionKey(
  params: OperationParams<'RollTransactionKey'>,
  call: GatewayCall,
  deps: GatewayDeps,
): Promise<OperationResult<'RollTransactionKey'>> {
  const id = merchantOf(call, 'RollTransactionKey');
  const overlap = params.overlap;
  if (!overlap || !(overlap in OVERLAP_MS))
    throw new PayframeError('invalid_request', 'Give the overlap: None, OneHour or TwentyFourHours.');
  const ms = OVERLAP_MS[overlap];
  const until = ms > 0 ? new Date(deps.now().getTime() + ms) : null;
  const key = await deps.db.transaction(async (tx) => {
    // The row locked, so two rolls at once follow each other: the second replaces the first's key.
    const { rows } = await tx.query<{ k: string }>(
      'select transaction_key_enc as k from merchants where id = $1 for update',
      [id],
    );
    if (!rows[0]) return null;
    const replaced = deps.merchants.transactionKeyOf(rows[0].k);
    const made = await deps.merchants.rollKey(tx, id, until);
    if (!made) return null;
    // Last uses of keys that no longer authenticate are of no further use.
    const kept = until ? [keyIdOf(made), keyIdOf(replaced)] : [keyIdOf(made)];
    await tx.query(
      'delete from transaction_key_uses where merchant_id = $1 and not (key_id = any($2::text[]))',
      [id, kept],
    );
    return made;
  });
  // A read on this instance between the roll and its commit may have kept the old row: drop it
  // (other instances hear of the change from the database, migration 0018).
  deps.merchants.cache.forget(id);
  if (!key) throw new PayframeError('not_found', 'No merchant matches this request.');
  return {
    Success: true,
    Message: until
      ? 'The new TransactionKey is shown this once. The previous key works until the overlap ends.'
      : 'The new TransactionKey is shown this once. The previous key no longer works.',
    TransactionKey: key,
    PreviousKeyValidUntil: until?.toISOString(),
  };
}

export async function getTransactionKeyStatus(
  _params: OperationParams<'GetTransactionKeyStatus'>,
  call: GatewayCall,
  deps: GatewayDeps,
): Promise<OperationResult<'GetTransactionKeyStatus'>> {
  const id = merchantOf(call, 'GetTransactionKeyStatus');
  // This instance's uses first, so what is read is exact for it (key-uses.ts).
  await deps.merchants.keyUses.flush(deps.db);
  const { rows } = await deps.db.query<{
    current: string;
    previous: string | null;
    until: Date | string | null;
  }>(
    `select transaction_key_enc as current, transaction_key_prev_enc as previous,
       transaction_key_prev_until as until
     from merchants where id = $1`,
    [id],
  );
  const r = rows[0];
  if (!r) throw new PayframeError('not_found', 'No merchant matches this request.');
  const now = deps.now();
  const until = r.until === null ? null : new Date(r.until);
  const previous = deps.merchants.previousKeyOf({ prevKeyEnc: r.previous, prevKeyUntil: until }, now);
  const currentId = keyIdOf(deps.merchants.transactionKeyOf(r.current));
  const previousId = previous === null ? null : keyIdOf(previous);
  const uses = await deps.db.query<{ key_id: string; last_used_at: Date | string }>(
    'select key_id, last_used_at from transaction_key_uses where merchant_id = $1 and key_id = any($2::text[])',
    [id, previousId ? [currentId, previousId] : [currentId]],
  );
  const lastUse = (keyId: string | null) => {
    const row = keyId ? uses.rows.find((u) => u.key_id === keyId) : undefined;
    return row ? new Date(row.last_used_at).toISOString() : undefined;
  };
  return {
    MerchantID: id,
    KeyLastUsedAt: lastUse(currentId),
    PreviousKeyValidUntil: previous === null ? undefined : until!.toISOString(),
    PreviousKeyLastUsedAt: lastUse(previousId),
  };
}

export const KEY_HANDLERS = {
  RollTransactionKey: rollTransactionKey,
  GetTransactionKeyStatus: getTransactionKeyStatus,
};
