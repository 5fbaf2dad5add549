/**
 * A Transaction Service for binding and client tests: it records what each call received and
 * answers with a chosen result (by default the contract's sample result), so a test can check that
 * the wire carried exactly what was sent, both ways.
 */
import { operations } from '../../../shared/contract/index.ts';
import type { Operation } from '../../../shared/contract/model.ts';
import type { TransactionService } from '../../../shared/contract/service.ts';
import type { CallContext } from '../../../server/soap/call-context.ts';
import { sampleResult, type Variant } from './sample-values.ts';

export interface RecordedCall {
  operation: string;
  params: Record<string, unknown>;
  context: CallContext;
}

export interface RecordingService {
  service: TransactionService<CallContext>;
  calls: RecordedCall[];
  /** Sets what an operation answers: a value, or a function that may throw or wait. */
  respond(operation: string, answer: (params: Record<string, unknown>) => unknown): void;
  variant: Variant;
}

export function recordingService(variant: Variant = 'full'): RecordingService {
  const calls: RecordedCall[] = [];
  const answers = new Map<string, (params: Record<string, unknown>) => unknown>();
  const recorder: RecordingService = {
    service: {} as TransactionService<CallContext>,
    calls,
    variant,
    respond: () => {},
  };
  const service: Record<string, (params: Record<string, unknown>, context: CallContext) => Promise<unknown>> =
    {};
  for (const op of operations as readonly Operation[]) {
    service[op.name] = async (params, context) => {
      calls.push({ operation: op.name, params, context });
      const answer = answers.get(op.name);
      return answer ? await answer(params) : sampleResult(op, recorder.variant);
    };
  }
  recorder.service = service as unknown as TransactionService<CallContext>;
  recorder.respond = (operation, answer) => answers.set(operation, answer);
  return recorder;
}
