import { STARTS_NC_NAME } from './xml-chars.ts';
import { XmlReadError } from './xml-read-error.ts';

/** Bound by definition to the `xml` prefix (Namespaces in XML 1.0 §3). */
export const XML_NS = 'http://www.w3.org/XML/1998/namespace';
/** The namespace of `xmlns` / `xmlns:p` declaration attributes (Namespaces in XML 1.0 §3). */
export const XMLNS_NS = 'http://www.w3.org/2000/xmlns/';

/**
 * In-scope namespace bindings, resolved by URI rather than by prefix: `<x:Op xmlns:x="evil">`
 * must not look like the service namespace (docs: asmx-compatibility.md §4 "Namespaces").
 *
 * One stack of URIs per prefix, pushed when an element declares it and popped when the element
 * ends, so each declaration costs O(1) however many are in scope (§2 row 12, declaration flood);
 * copying a map per element would be quadratic. The default namespace is the prefix ''.
 */
export class NamespaceScope {
  private readonly bindings = new Map<string, string[]>([['xml', [XML_NS]]]);

  /** Applies one declaration; `prefix` is '' for `xmlns="…"`. Returns the prefix to pass to `end`. */
  declare(prefix: string, uri: string): string {
    if (prefix === 'xmlns' || uri === XMLNS_NS) {
      throw new XmlReadError('malformed', 'The xmlns prefix and namespace are reserved');
    }
    if ((prefix === 'xml') !== (uri === XML_NS)) {
      throw new XmlReadError('malformed', 'The xml prefix and namespace go only together');
    }
    // `xmlns=""` undeclares the default namespace; Namespaces 1.0 has no way to undeclare a prefix.
    if (uri === '' && prefix !== '') throw new XmlReadError('malformed', 'A prefix cannot be undeclared');
    const stack = this.bindings.get(prefix);
    if (stack) stack.push(uri);
    else this.bindings.set(prefix, [uri]);
    return prefix;
  }

  /** Undoes the declarations an element made, in any order. */
  end(prefixes: readonly string[]): void {
    for (const prefix of prefixes) this.bindings.get(prefix)?.pop();
  }

  /** The URI bound to `prefix`, '' for an unprefixed name outside any default namespace. */
  resolve(prefix: string): string {
    const stack = this.bindings.get(prefix);
    const uri = stack?.[stack.length - 1];
    if (uri !== undefined) return uri;
    if (prefix === '') return '';
    throw new XmlReadError('undeclared-prefix', 'Reference to an undeclared namespace prefix');
  }
}

/** Splits a QName; the scan accepted any XML `Name`, so colons are checked here (Namespaces §4). */
export function splitQName(qname: string): { prefix: string; local: string } {
  const colon = qname.indexOf(':');
  if (colon === -1) return { prefix: '', local: qname };
  const prefix = qname.slice(0, colon);
  const local = qname.slice(colon + 1);
  // Both parts are NCNames: the scan matched the whole name as a Name, so only the colon count and
  // the local part's first character (`xml:-lang`) are left to check.
  if (prefix === '' || local.includes(':') || !STARTS_NC_NAME.test(local)) {
    throw new XmlReadError('malformed', 'Name is not a valid QName');
  }
  return { prefix, local };
}
