/**
 * XML → values, by the contract (DESIGN.md §1), with XmlSerializer's reading rules
 * (asmx-compatibility.md §1.4): elements are matched by namespace URI and local name in any order;
 * unknown, misplaced and wrong-namespace elements are ignored; the first of duplicates wins; scalars
 * follow XmlConvert. Payframe's deviation: a missing Required element is refused, naming it, where
 * ASMX's default could move money or change whom or what the call acts on; elsewhere the default
 * is taken as ASMX takes it (DESIGN.md §2; the rules are shared/contract/missing-values.ts).
 */
import { fieldsOf, findComplexType } from '../../../shared/contract/index.ts';
import { parseEnum } from '../../../shared/contract/enum-values.ts';
import {
  conditionText,
  heldCondition,
  type MissingRules,
  missingRulesOfType,
} from '../../../shared/contract/missing-values.ts';
import type { EnumFieldType, Field, FieldType } from '../../../shared/contract/model.ts';
import { isScalarType } from '../../../shared/contract/model.ts';
import { neutralValue } from '../../../shared/contract/neutral.ts';
import { parseScalar } from '../../../shared/contract/scalars.ts';
import { XSI_NS } from '../soap-fault.ts';
import { attr, childElements, textOf, type XmlElement } from '../xml/index.ts';

/** A value the contract cannot accept; `line`/`col` locate the element for the fault string. */
export class DecodeError extends Error {
  constructor(
    message: string,
    readonly path: string,
    readonly position?: { line: number; col: number },
  ) {
    super(message);
    this.name = 'DecodeError';
  }
}

function isNil(el: XmlElement): boolean {
  const v = attr(el, XSI_NS, 'nil')?.trim();
  return v === 'true' || v === '1';
}

function decodeScalarElement(el: XmlElement, type: string, path: string): unknown {
  const text = textOf(el);
  if (text === undefined) {
    throw new DecodeError(`Element '${path}' must hold text, not elements.`, path, el);
  }
  try {
    return parseScalar(type as Parameters<typeof parseScalar>[0], text);
  } catch (err) {
    throw new DecodeError(`Element '${path}': ${(err as Error).message}`, path, el);
  }
}

function decodeEnumElement(el: XmlElement, type: EnumFieldType, path: string): unknown {
  const text = textOf(el);
  if (text === undefined) {
    throw new DecodeError(`Element '${path}' must hold text, not elements.`, path, el);
  }
  try {
    return parseEnum(type, text);
  } catch (err) {
    throw new DecodeError(`Element '${path}': ${(err as Error).message}`, path, el);
  }
}

function decodeItem(el: XmlElement, itemType: string, ns: string, path: string): unknown {
  if (isNil(el)) return null;
  return isScalarType(itemType)
    ? decodeScalarElement(el, itemType, path)
    : decodeComplex(el, itemType, ns, path);
}

function decodeElement(el: XmlElement, field: Field, ns: string, path: string): unknown {
  const type: FieldType = field.type;
  if (isNil(el)) {
    // string, complex, list and nillable elements may be nil; a nil value type (an enumeration is
    // one) would have no value to hold.
    const valueType = type.kind === 'enum' || (type.kind === 'scalar' && type.type !== 'string');
    if (field.nillable || !valueType) return null;
    throw new DecodeError(`Element '${path}' may not be nil.`, path, el);
  }
  switch (type.kind) {
    case 'scalar':
      return decodeScalarElement(el, type.type, path);
    case 'enum':
      return decodeEnumElement(el, type, path);
    case 'complex':
      return decodeComplex(el, type.type, ns, path);
    case 'list':
      return childElements(el)
        .filter((c) => c.ns === ns && c.local === type.itemElement)
        .map((c, i) => decodeItem(c, type.item, ns, `${path}/${type.itemElement}[${i + 1}]`));
  }
}

/**
 * Decodes the children of `el` as the given fields; `el` undefined means none were sent. A missing
 * Required element is refused unless `rules` (a request's) lets it take ASMX's default.
 */
export function decodeFields(
  el: XmlElement | undefined,
  fields: readonly Field[],
  ns: string,
  path: string,
  rules?: MissingRules,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const seen = new Set<string>();
  if (el) {
    for (const child of childElements(el)) {
      if (child.ns !== ns || seen.has(child.local)) continue; // wrong namespace, or a later duplicate
      const field = fields.find((f) => f.name === child.local);
      if (!field) continue; // unknown element: ignored, as XmlSerializer's UnknownNode does
      seen.add(field.name);
      out[field.name] = decodeElement(child, field, ns, path ? `${path}/${field.name}` : field.name);
    }
  }
  if (seen.size === fields.length) return out;
  let conditional: Field[] | undefined;
  for (const f of fields) {
    if (f.minOccurs !== 1 || seen.has(f.name)) continue;
    const rule = rules?.[f.name];
    if (rule === undefined || rule.missing === 'refuse') throw missing(f, el, path);
    if (rule.missing === 'default') out[f.name] = neutralValue(f);
    else (conditional ??= []).push(f);
  }
  // Conditions read siblings as decoded, defaults included (IsRecurring missing is false).
  for (const f of conditional ?? []) {
    const rule = rules?.[f.name];
    const held = rule?.missing === 'default-unless' ? heldCondition(rule, out) : null;
    if (held !== null) throw missing(f, el, path, ` It is required when ${conditionText(held)}.`);
  }
  for (const f of conditional ?? []) out[f.name] = neutralValue(f);
  return out;
}

function missing(f: Field, el: XmlElement | undefined, path: string, why = ''): DecodeError {
  const where = path ? `${path}/${f.name}` : f.name;
  return new DecodeError(`Required element '${where}' is missing.${why}`, where, el);
}

export function decodeComplex(
  el: XmlElement,
  typeName: string,
  ns: string,
  path: string,
): Record<string, unknown> {
  const type = findComplexType(typeName);
  if (!type) throw new Error(`Contract has no type ${typeName}`);
  return decodeFields(el, fieldsOf(type), ns, path, missingRulesOfType(typeName));
}

/** Decodes an `<OpResult>` element (or its absence) as the operation's result type. */
export function decodeResult(
  el: XmlElement | undefined,
  result: FieldType,
  ns: string,
  path: string,
): unknown {
  if (result.kind === 'list') {
    if (!el) return [];
    return childElements(el)
      .filter((c) => c.ns === ns && c.local === result.itemElement)
      .map((c, i) => decodeItem(c, result.item, ns, `${path}/${result.itemElement}[${i + 1}]`));
  }
  if (!el) throw new DecodeError(`The response has no '${path}' element.`, path);
  return decodeElement(el, { name: path, type: result, minOccurs: 1, nillable: false }, ns, path);
}
