/**
 * The dashboard's Developers page, its TransactionKey part (issue 16; docs/dashboard.md
 * "Developers"), through the Transaction Service as the signed-in user. The key is answered once,
 * by the roll that made it; nothing here reads it (the gateway answers no key to a user).
 *
 *   GET  /developers            the merchant id and the code snippets (any role)
 *   GET  /developers/key        GetTransactionKeyStatus: each key's last use, the overlap's end (Owner)
 *   POST /developers/key/roll   RollTransactionKey { overlap: None | OneHour | TwentyFourHours } (Owner)
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { TransactionKeyOverlap } from '../../shared/contract/dashboard-developers.ts';
import { parseOr400 } from '../checkout/field-errors.ts';
import { developerSnippets, type DeveloperSnippets } from './developer-snippets.ts';
import { type DashboardDeps, verified } from './user-context.ts';

export interface DevelopersView {
  merchantId: string;
  publicUrl: string;
  snippets: DeveloperSnippets;
}

export interface KeyStatusView {
  lastUsedAt: string | null;
  /** While the previous key still works: its end; else null (and previous* null). */
  previousValidUntil: string | null;
  previousLastUsedAt: string | null;
}

export interface KeyRollView {
  /** The new key: this answer only. */
  transactionKey: string;
  previousValidUntil: string | null;
}

const RollBody = z.strictObject({ overlap: z.enum(TransactionKeyOverlap.values) });

const iso = (v: string | null | undefined) => (v ? new Date(v).toISOString() : null);

export async function developerRoutes(app: FastifyInstance, deps: DashboardDeps): Promise<void> {
  app.get('/developers', async (request): Promise<DevelopersView> => {
    const user = await verified(deps, request);
    const merchantId = String(user.session.MerchantID);
    const publicUrl = deps.checkout.publicUrl;
    return { merchantId, publicUrl, snippets: developerSnippets(merchantId, publicUrl) };
  });

  app.get('/developers/key', async (request): Promise<KeyStatusView> => {
    const user = await verified(deps, request);
    const s = await deps.checkout.port.GetTransactionKeyStatus({}, user.context);
    return {
      lastUsedAt: iso(s.KeyLastUsedAt),
      previousValidUntil: iso(s.PreviousKeyValidUntil),
      previousLastUsedAt: iso(s.PreviousKeyLastUsedAt),
    };
  });

  app.post('/developers/key/roll', async (request, reply): Promise<KeyRollView> => {
    const body = parseOr400(RollBody, request.body ?? {});
    const user = await verified(deps, request);
    const r = await deps.checkout.port.RollTransactionKey({ overlap: body.overlap }, user.context);
    if (!r.Success || !r.TransactionKey) throw new Error('The gateway answered no new key.');
    // The one answer that carries the key: never kept by a cache on the way.
    reply.header('cache-control', 'no-store');
    return { transactionKey: r.TransactionKey, previousValidUntil: iso(r.PreviousKeyValidUntil) };
  });
}
