/**
 * The Transaction Service before the gateway fills it in: every operation answers with a clear
 * "not implemented" Server fault — never with made-up data.
 */
import { operations } from '../../shared/contract/index.ts';
import type { TransactionService } from '../../shared/contract/service.ts';
import { PayframeError } from '../errors.ts';
import type { CallContext } from './call-context.ts';

export function notImplementedService(): TransactionService<CallContext> {
  const service: Record<string, () => Promise<never>> = {};
  for (const op of operations) {
    service[op.name] = async () => {
      throw new PayframeError('not_implemented', `${op.name} is not implemented yet.`);
    };
  }
  return service as unknown as TransactionService<CallContext>;
}
