import { expect } from 'vitest';
import { childElements, type XmlElement } from '../../../server/soap/xml/xml-element.ts';
import { XmlReadError, type XmlReadReason } from '../../../server/soap/xml/xml-read-error.ts';

// Helpers for the *.test.ts files in this folder only.

export const SOAP11 = 'http://schemas.xmlsoap.org/soap/envelope/';
export const SOAP12 = 'http://www.w3.org/2003/05/soap-envelope';
export const SERVICE = 'http://payframe.example/TransactionService';

/** Runs `read` and asserts it fails with XmlReadError of this reason; returns the error. */
export function expectReadError(read: () => unknown, reason: XmlReadReason): XmlReadError {
  let caught: unknown;
  try {
    read();
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(XmlReadError);
  const error = caught as XmlReadError;
  expect(error.reason).toBe(reason);
  // Messages never echo the input (xml-read-error.ts), so they stay short whatever was sent.
  expect(error.message.length).toBeLessThan(120);
  return error;
}

/** A SOAP 1.1 envelope in ASMX's own style around `body`. */
export function envelope(body: string): string {
  return (
    `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="${SOAP11}">` +
    `<soap:Body><GetHistory xmlns="${SERVICE}">${body}</GetHistory></soap:Body></soap:Envelope>`
  );
}

/** The first child element with this local name; fails the test when there is none. */
export function child(el: XmlElement, local: string): XmlElement {
  const found = childElements(el).find((c) => c.local === local);
  if (found === undefined) throw new Error(`no <${local}> under <${el.local}>`);
  return found;
}

/** The operation element of an envelope: the first element child of Body. */
export function operationOf(root: XmlElement): XmlElement {
  const op = childElements(child(root, 'Body'))[0];
  if (op === undefined) throw new Error('empty Body');
  return op;
}
