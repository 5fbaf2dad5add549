/** Attack table: XML sent to the Transaction Service (docs/security.md): where each row is proven; see attack-coverage.ts. */
import { type Coverage, t } from './coverage-model.ts';

// Files referenced more than once.
const XML_UNIT = 'server/soap/xml/attack-matrix.test.ts';
const XML_HTTP = 'server/soap/attacks.test.ts';
const SEC = 'server/security';
const FAULT_ECHO = 'server/soap/fault-echo.test.ts';

export const xmlAttacks: Record<number, Coverage> = {
  1: {
    tests: [t(XML_UNIT, 'row 1: XXE external entity'), t(XML_HTTP, '1 XXE external entity')],
  },
  2: {
    tests: [
      t(XML_UNIT, 'row 2: parameter entity and external DTD'),
      t(XML_HTTP, '2 external DTD / parameter entity'),
    ],
  },
  3: { tests: [t(XML_UNIT, 'row 3: billion laughs'), t(XML_HTTP, '3 billion laughs')] },
  4: { tests: [t(XML_UNIT, 'row 4: quadratic blowup'), t(XML_HTTP, '4 quadratic blowup')] },
  5: {
    tests: [t(XML_UNIT, 'row 5: numeric char-ref flood'), t(XML_HTTP, '5 numeric character-reference flood')],
  },
  6: { tests: [t(XML_UNIT, 'row 6: deep nesting'), t(XML_HTTP, '6 deep nesting')] },
  7: { tests: [t(XML_UNIT, 'row 7: attribute blowup'), t(XML_HTTP, '7 attribute blowup')] },
  8: {
    tests: [
      t(XML_UNIT, 'row 8: overlong element and attribute names'),
      t(XML_HTTP, '8/9 oversized body: 413 before parsing'),
      t(XML_HTTP, '8 overlong names: rejected'),
    ],
  },
  9: {
    tests: [
      t(XML_HTTP, '8/9 oversized body: 413 before parsing'),
      t(`${SEC}/soap-body-limits.test.ts`, 'xml row 9: a chunked body without Content-Length'),
      t(`${SEC}/soap-body-limits.test.ts`, 'xml row 9: a slow client'),
    ],
  },
  10: { tests: [t(XML_HTTP, '10 compression bomb: a gzip body is not inflated')] },
  11: { tests: [t(XML_UNIT, 'row 11: hash-collision attribute names stay linear and are still capped')] },
  12: {
    tests: [
      t(XML_UNIT, 'row 12: namespace declaration flood'),
      t(XML_HTTP, '12 namespace declaration flood'),
    ],
  },
  13: {
    tests: [
      t(XML_UNIT, 'row 13: SOAP array attack attributes are just attributes'),
      t(XML_HTTP, '13 SOAP array attack'),
    ],
  },
  14: {
    tests: [
      t(XML_UNIT, 'row 14: odd encodings'),
      t(XML_HTTP, '14 utf-16 declaration over UTF-8 bytes'),
      t(XML_HTTP, '14 UTF-7 charset'),
      t(XML_HTTP, '14 invalid UTF-8'),
    ],
  },
  15: {
    tests: [
      t(XML_UNIT, 'row 15: UTF-8 BOM and UTF-16LE BOM bodies are accepted'),
      t(XML_HTTP, '15 a UTF-8 BOM and a UTF-16LE body with BOM are accepted'),
    ],
  },
  16: {
    tests: [t(XML_UNIT, 'row 16: a declaration that is not first'), t(XML_HTTP, '16 declaration not first')],
  },
  17: {
    tests: [
      t(XML_UNIT, 'row 17: CDATA gives its literal content'),
      t(XML_HTTP, '17 CDATA gives its literal value'),
    ],
  },
  18: {
    tests: [
      t(XML_UNIT, 'row 18: comments and PIs in Body are ignored'),
      t(XML_HTTP, '18 comments and PIs are ignored'),
    ],
  },
  19: {
    tests: [
      t(XML_UNIT, 'row 19: characters outside XML 1.0'),
      t(XML_HTTP, '19 raw control character'),
      t(XML_HTTP, '19 control character reference'),
      t(XML_HTTP, '19 NUL reference'),
      t(XML_HTTP, '19 surrogate reference'),
    ],
  },
  20: { tests: [t(XML_UNIT, 'row 20: undeclared entities'), t(XML_HTTP, '20 undeclared entity')] },
  21: {
    tests: [
      t(XML_UNIT, 'row 21: multiple roots and trailing junk'),
      t(XML_HTTP, '21 trailing junk'),
      t(XML_HTTP, '21 two roots'),
    ],
  },
  22: {
    tests: [
      t(XML_UNIT, 'row 22: prototype-pollution names'),
      t(XML_HTTP, '22 prototype-pollution names are ignored parameters, and pollute nothing'),
    ],
  },
  23: {
    tests: [
      t(XML_UNIT, 'row 23: duplicate elements are all kept'),
      t(
        'server/soap/soap-binding.test.ts',
        'ignores unknown and wrong-namespace elements and takes the first duplicate',
      ),
    ],
  },
  24: {
    tests: [
      t(
        'server/soap/soap-binding.test.ts',
        'runs the SOAPAction operation with what the Body lacks when the Body carries another (row 24)',
      ),
    ],
  },
  25: {
    notApplicable:
      'Payframe implements no WS-Security: the Transaction Service authenticates by merchant ' +
      'credentials in the call, never by an XML signature, so there is no signed element to wrap ' +
      'or move. A test becomes due the day WS-Security is added.',
  },
  26: {
    tests: [
      t(XML_UNIT, 'row 26: XInclude and xsi:schemaLocation are never resolved'),
      t(XML_HTTP, '26 XInclude and xsi:schemaLocation are never resolved'),
    ],
  },
  27: {
    tests: [
      t(FAULT_ECHO, 'SOAPAction: a checked value is quoted, one with a card number is not'),
      t(FAULT_ECHO, 'the SOAP 1.2 action parameter, the Envelope namespace and a header block name'),
      t(FAULT_ECHO, 'values that do not convert: a boolean over SOAP, a number over HTTP GET'),
      t(FAULT_ECHO, 'HTTP GET/POST: an operation name in the URL and a content type'),
    ],
  },
};
