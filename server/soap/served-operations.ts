/**
 * The operations one Transaction Service serves: the whole contract by default, or the spec's 21
 * alone (`payframe serve --role gateway --spec-only`, issue 20), so that a checkout can be shown to
 * work in front of a service that speaks nothing else. Every part of the plugin that names or finds
 * an operation (WSDL, help pages, the SOAP and HTTP bindings, the check before the body) asks this
 * one object, so an operation left out is unknown everywhere alike: its SOAPAction, Body element and
 * URL path answer exactly as a name the contract never had.
 */
import { type Operation, operations } from '../../shared/contract/index.ts';

export interface ServedOperations {
  /** In contract order (the WSDL's order). */
  readonly list: readonly Operation[];
  /** The served operation of this exact name (ASMX method names are case-sensitive, §1.1). */
  find(name: string): Operation | undefined;
  /** The served operation whose name differs only in case (GET/POST's "method names are case sensitive"). */
  findIgnoringCase(name: string): Operation | undefined;
}

export function servedOperations(list: readonly Operation[] = operations): ServedOperations {
  // A Map, not an object: names come from SOAPAction headers and URL paths.
  const byName = new Map(list.map((op): [string, Operation] => [op.name, op]));
  const byLowerName = new Map<string, Operation>();
  for (const op of list) {
    const lower = op.name.toLowerCase();
    if (!byLowerName.has(lower)) byLowerName.set(lower, op);
  }
  return {
    list,
    find: (name) => byName.get(name),
    findIgnoringCase: (name) => byLowerName.get(name.toLowerCase()),
  };
}

/** The whole contract, made once: what every Transaction Service serves unless told otherwise. */
export const allOperations: ServedOperations = servedOperations();
