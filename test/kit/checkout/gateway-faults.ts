/**
 * Fault hooks of the tests (never of a production path): the gateway of a test app "dies" at a
 * chosen point of a pay, by wrapping its dependencies.
 */
import type { Database } from '../../../server/db/database.ts';
import type { GatewayDeps } from '../../../server/gateway/gateway-call.ts';
import type { Processor, ProcessorResult } from '../../../server/gateway/processor/processor.ts';

/**
 * Arms a crash of the gateway right after the processor answers a card: the gateway's next
 * transaction (the record of the outcome) throws, as if the process had died there. `answer`
 * replaces the processor's answer (default: the real processor's).
 */
export function crashAfterProcessor(deps: GatewayDeps, answer?: () => ProcessorResult) {
  const realDb = deps.db;
  const realProcessor = deps.processor;
  let armed = false;
  const state = { crashed: 0 };
  deps.db = new Proxy(realDb, {
    get(target, prop, receiver) {
      if (prop === 'transaction' && armed) {
        return () => {
          armed = false;
          state.crashed++;
          return Promise.reject(new Error('the gateway died before recording the outcome'));
        };
      }
      const value: unknown = Reflect.get(target, prop, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  }) as Database;
  deps.processor = new Proxy(realProcessor, {
    get(target, prop, receiver) {
      if (prop === 'authorizeCard') {
        return async (req: Parameters<Processor['authorizeCard']>[0]) => {
          const result = answer ? answer() : await target.authorizeCard(req);
          armed = true;
          return result;
        };
      }
      const value: unknown = Reflect.get(target, prop, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return {
    state,
    restore() {
      deps.db = realDb;
      deps.processor = realProcessor;
    },
  };
}
