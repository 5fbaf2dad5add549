/**
 * Every string element of an operation's parameters, walked by the contract (DESIGN.md §1): the
 * rules that hold for all free text, whatever the operation — no card number (card-text.ts), the
 * text policy (text-elements.ts) — read the parameters through this one walker, so a new operation
 * or field is covered with no other edit. Elements are named as the faults name them
 * (`request/CustomValue1`, `invoiceRequest/Invoices/InvoiceDetails[2]/InvoiceNumber`).
 *
 * Pure: no I/O, no Node imports.
 */
import type { Field, FieldType } from './model.ts';
import { isScalarType } from './model.ts';
import { getOperation, type OperationName } from './operations.ts';
import { fieldsOf, findComplexType } from './types.ts';

/** Elements a rule leaves alone: by complex type and field name, and by operation and parameter. */
export interface ElementExemptions {
  readonly elements: { readonly [type: string]: readonly string[] | undefined };
  readonly params: { readonly [operation: string]: readonly string[] | undefined };
}

/**
 * What a visit answers for one string element: the value to keep (the same string, or another one
 * in its place), or `STOP` to end the walk there.
 */
export const STOP = Symbol('stop');
type Visit = (value: string, path: string) => string | typeof STOP;

interface Walk {
  visit: Visit;
  exempt: ElementExemptions;
  stoppedAt: string | null;
}

function walkValue(value: unknown, type: FieldType, path: string, w: Walk): unknown {
  if (value === null || value === undefined) return value;
  switch (type.kind) {
    case 'scalar': {
      if (type.type !== 'string' || typeof value !== 'string') return value;
      const kept = w.visit(value, path);
      if (kept === STOP) {
        w.stoppedAt = path;
        return value;
      }
      return kept;
    }
    case 'enum':
      return value; // one of the enumeration's names
    case 'complex':
      return walkComplex(value, type.type, path, w);
    case 'list': {
      if (!Array.isArray(value)) return value;
      const item: FieldType = isScalarType(type.item)
        ? { kind: 'scalar', type: type.item }
        : { kind: 'complex', type: type.item };
      let copy: unknown[] | null = null;
      for (let i = 0; i < value.length && w.stoppedAt === null; i++) {
        const kept = walkValue(value[i], item, `${path}/${type.itemElement}[${i + 1}]`, w);
        if (kept !== value[i]) (copy ??= [...value])[i] = kept;
      }
      return copy ?? value;
    }
  }
}

function walkComplex(value: unknown, typeName: string, path: string, w: Walk): unknown {
  const type = findComplexType(typeName);
  if (type === undefined || typeof value !== 'object' || value === null) return value;
  const skip = w.exempt.elements[typeName];
  const record = value as Record<string, unknown>;
  let copy: Record<string, unknown> | null = null;
  for (const field of fieldsOf(type)) {
    if (w.stoppedAt !== null) break;
    if (skip?.includes(field.name) || !Object.hasOwn(record, field.name)) continue;
    const kept = walkValue(record[field.name], field.type, `${path}/${field.name}`, w);
    if (kept !== record[field.name]) (copy ??= { ...record })[field.name] = kept;
  }
  return copy ?? value;
}

/**
 * Visits every string element of `params` not exempt, in contract order, until a visit answers
 * `STOP`. Answers the parameters with the values the visits kept (the same object when none
 * changed: nothing is copied for nothing) and the path where the walk stopped, or null.
 */
export function walkStringElements(
  operation: OperationName,
  params: unknown,
  exempt: ElementExemptions,
  visit: Visit,
): { params: unknown; stoppedAt: string | null } {
  if (typeof params !== 'object' || params === null) return { params, stoppedAt: null };
  const w: Walk = { visit, exempt, stoppedAt: null };
  const skip = exempt.params[operation];
  const record = params as Record<string, unknown>;
  let copy: Record<string, unknown> | null = null;
  for (const param of getOperation(operation).params as readonly Field[]) {
    if (w.stoppedAt !== null) break;
    if (skip?.includes(param.name) || !Object.hasOwn(record, param.name)) continue;
    const kept = walkValue(record[param.name], param.type, param.name, w);
    if (kept !== record[param.name]) (copy ??= { ...record })[param.name] = kept;
  }
  return { params: copy ?? params, stoppedAt: w.stoppedAt };
}
