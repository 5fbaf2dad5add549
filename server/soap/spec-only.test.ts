/**
 * `payframe serve --role gateway --spec-only` (issue 20): the gateway role's Transaction Service
 * offers the spec's 21 operations and nothing else. Its WSDL (read by node-soap, as the conformance
 * tests read Payframe's) and help pages name only them and only the schema types they reach; an
 * extension named by SOAPAction, Body element, `action` parameter or URL path answers exactly as a
 * name the contract never had (same status, headers that matter, body with the name swapped); the
 * spec's operations work as before. Beside it, the same database behind a gateway serving the whole
 * contract answers the extension: what is compared is an operation the service really has.
 */
import type { InjectOptions } from 'fastify';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import soap from 'soap';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  extensionOperations,
  type FieldType,
  findComplexType,
  specOperations,
} from '../../shared/contract/index.ts';
import { buildGatewayApp, type GatewayApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import type { Database } from '../db/database.ts';
import { call, SERVICE_KEY } from '../../test/kit/gateway/gateway-kit.ts';
import { basic, NS } from '../../test/kit/gateway/soap-call.ts';
import { createLogger } from '../logger.ts';
import { databaseTargets, tempDir } from '../../test/kit/databases.ts';
import { arrayTypeName } from './wsdl-schema.ts';

const SPEC_NAMES: string[] = specOperations.map((op) => op.name);
const UNKNOWN = 'NoSuchOperation';

/** The complex types (ArrayOfX included) and enumerations the spec's operations reach, from the table. */
function reachedBySpec(): { complex: Set<string>; enums: Set<string> } {
  const complex = new Set<string>();
  const enums = new Set<string>();
  const visit = (type: FieldType): void => {
    if (type.kind === 'scalar') return;
    if (type.kind === 'enum') {
      enums.add(type.type);
      return;
    }
    if (type.kind === 'list') {
      complex.add(arrayTypeName(type));
      if (findComplexType(type.item) !== undefined) visit({ kind: 'complex', type: type.item });
      return;
    }
    if (complex.has(type.type)) return;
    complex.add(type.type);
    const t = findComplexType(type.type)!;
    if (t.base !== undefined) visit({ kind: 'complex', type: t.base });
    for (const f of t.fields) visit(f.type);
  };
  for (const op of specOperations) {
    for (const p of op.params) visit(p.type);
    if (op.result) visit(op.result);
  }
  return { complex, enums };
}

const attrs = (xml: string, element: RegExp, attr: string): string[] =>
  [...xml.matchAll(element)].map((m) => new RegExp(`\\b${attr}="([^"]+)"`).exec(m[0])?.[1] ?? '');
/** The named `<s:complexType>`s and `<s:simpleType>`s of a WSDL's schema. */
const schemaTypes = (wsdl: string, kind: 'complexType' | 'simpleType') =>
  new Set(attrs(wsdl, new RegExp(`<s:${kind} name="[^"]+"`, 'g'), 'name'));
/** The operation names of one binding (or portType) of a WSDL, in order. */
function operationsOf(wsdl: string, element: 'binding' | 'portType', name: string): string[] {
  const start = wsdl.indexOf(`<wsdl:${element} name="${name}"`);
  if (start < 0) return [];
  const end = wsdl.indexOf(`</wsdl:${element}>`, start);
  return attrs(wsdl.slice(start, end), /<wsdl:operation name="[^"]+"/g, 'name');
}

/** A gateway role app on `db`, as `serve --role gateway [--spec-only]` builds it (one vault key: one DATA_DIR). */
async function gatewayApp(db: Database, dataDir: string, specOnly: boolean): Promise<GatewayApp> {
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    DATA_DIR: dataDir,
    GATEWAY_SERVICE_KEY: SERVICE_KEY,
  });
  const logger = createLogger({ level: config.logLevel, destination: { write: () => {} } });
  return buildGatewayApp({ config, db, logger, specOnly });
}

type Who = { merchantId: string; key: string } | null;

/** One way of naming an operation on the wire, as a request for `op`. */
interface Way {
  label: string;
  request(op: string, who: Who): InjectOptions;
}
const envelope = (ns: string, op: string) =>
  `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="${ns}"><soap:Body><${op} xmlns="${NS}"><token>cs_x</token></${op}></soap:Body></soap:Envelope>`;
const SOAP11 = 'http://schemas.xmlsoap.org/soap/envelope/';
const SOAP12 = 'http://www.w3.org/2003/05/soap-envelope';
const path = '/TransactionService.asmx';
const WAYS: Way[] = [
  {
    label: 'SOAP 1.1 (SOAPAction and Body)',
    request: (op, who) => ({
      method: 'POST',
      url: path,
      headers: { 'content-type': 'text/xml; charset=utf-8', soapaction: `"${NS}${op}"`, ...basic(who) },
      payload: envelope(SOAP11, op),
    }),
  },
  {
    label: 'SOAP 1.1 (a bare name as SOAPAction)',
    request: (op, who) => ({
      method: 'POST',
      url: path,
      headers: { 'content-type': 'text/xml; charset=utf-8', soapaction: op, ...basic(who) },
      payload: envelope(SOAP11, op),
    }),
  },
  {
    label: 'SOAP 1.2 (action parameter and Body)',
    request: (op, who) => ({
      method: 'POST',
      url: path,
      headers: { 'content-type': `application/soap+xml; charset=utf-8; action="${NS}${op}"`, ...basic(who) },
      payload: envelope(SOAP12, op),
    }),
  },
  {
    label: 'SOAP 1.2 (Body element only)',
    request: (op, who) => ({
      method: 'POST',
      url: path,
      headers: { 'content-type': 'application/soap+xml; charset=utf-8', ...basic(who) },
      payload: envelope(SOAP12, op),
    }),
  },
  {
    label: 'HTTP POST',
    request: (op, who) => ({
      method: 'POST',
      url: `${path}/${op}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...basic(who) },
      payload: 'token=cs_x',
    }),
  },
  {
    label: 'HTTP POST, the name in another case',
    request: (op, who) => ({
      method: 'POST',
      url: `${path}/${op.toLowerCase()}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...basic(who) },
      payload: 'token=cs_x',
    }),
  },
  {
    label: 'HTTP GET',
    request: (op, who) => ({ method: 'GET', url: `${path}/${op}?token=cs_x`, headers: basic(who) }),
  },
];

/** What a client sees of an answer, the operation's name (any case) replaced by `OP`. */
async function answer(app: GatewayApp['app'], way: Way, op: string, who: Who) {
  const res = await app.inject(way.request(op, who));
  const swap = (s: string | undefined) => s?.replaceAll(op, 'OP').replaceAll(op.toLowerCase(), 'op');
  return {
    status: res.statusCode,
    type: res.headers['content-type'],
    challenge: res.headers['www-authenticate'],
    allow: res.headers.allow,
    body: swap(res.body),
  };
}

describe.each(databaseTargets())('the Transaction Service with --spec-only ($name)', (target) => {
  let db: Database;
  let spec: GatewayApp;
  let full: GatewayApp;
  let merchant: { merchantId: string; key: string };
  const dir = mkdtempSync(join(tmpdir(), 'payframe-spec-wsdl-'));

  beforeAll(async () => {
    db = await target.open();
    const dataDir = tempDir('payframe-spec-only-');
    spec = await gatewayApp(db, dataDir, true);
    full = await gatewayApp(db, dataDir, false);
    const { merchant: m, transactionKey } = await spec.gateway.deps.merchants.create(db, {
      name: 'Spec Only Supplies',
      origins: ['https://shop.example'],
      threeDsEnrolled: false,
      email: 'billing@spec-only.example',
    });
    merchant = { merchantId: m.id, key: transactionKey };
  });
  afterAll(async () => {
    await spec?.app.close();
    await full?.app.close();
    await db?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const wsdlOf = async (app: GatewayApp) =>
    (await app.app.inject({ method: 'GET', url: `${path}?WSDL` })).body;

  it("the WSDL declares exactly the spec's 21 operations in every binding, and only the types they reach", async () => {
    const wsdl = await wsdlOf(spec);
    const whole = await wsdlOf(full);
    expect(SPEC_NAMES).toHaveLength(21);
    for (const [element, name] of [
      ['portType', 'TransactionServiceSoap'],
      ['binding', 'TransactionServiceSoap'],
      ['binding', 'TransactionServiceSoap12'],
    ] as const) {
      expect(operationsOf(wsdl, element, name), name).toEqual(SPEC_NAMES);
    }
    // GET and POST keep their own rule (simple parameters; GET reads only), over the spec's operations.
    for (const verb of ['TransactionServiceHttpGet', 'TransactionServiceHttpPost']) {
      const served = operationsOf(whole, 'binding', verb).filter((n) => SPEC_NAMES.includes(n));
      expect(served.length).toBeGreaterThan(0);
      expect(operationsOf(wsdl, 'binding', verb), verb).toEqual(served);
      expect(operationsOf(wsdl, 'portType', verb), verb).toEqual(served);
    }
    const messages = attrs(wsdl, /<wsdl:message name="[^"]+"/g, 'name');
    expect(
      messages.every((m) =>
        SPEC_NAMES.some((n) => new RegExp(`^${n}(Soap|HttpGet|HttpPost)(In|Out)$`).test(m)),
      ),
    ).toBe(true);
    for (const op of extensionOperations) {
      expect(wsdl).not.toContain(`"${op.name}"`);
      expect(wsdl).not.toContain(`tns:${op.name}`);
      expect(whole).toContain(`"${op.name}"`);
    }
    expect(wsdl).not.toContain('Payframe extension');

    const reached = reachedBySpec();
    expect(schemaTypes(wsdl, 'complexType')).toEqual(reached.complex);
    expect(schemaTypes(wsdl, 'simpleType')).toEqual(reached.enums);
    // What the whole contract declares beyond them is left out, and there is some.
    const left = [...schemaTypes(whole, 'complexType'), ...schemaTypes(whole, 'simpleType')].filter(
      (n) => !reached.complex.has(n) && !reached.enums.has(n),
    );
    expect(left.length).toBeGreaterThan(0);
    for (const name of left) expect(wsdl).not.toContain(`tns:${name}"`);
  });

  it('node-soap reads the WSDL: its SOAP 1.1 and 1.2 ports, each with the spec operations', async () => {
    const file = join(dir, 'spec-only.wsdl');
    writeFileSync(file, await wsdlOf(spec));
    const client = await soap.createClientAsync(file);
    const ports = client.describe().TransactionService as Record<string, Record<string, unknown>>;
    // node-soap describes the SOAP ports only (the HTTP GET/POST ones are checked above).
    expect(Object.keys(ports).sort()).toEqual(['TransactionServiceSoap', 'TransactionServiceSoap12']);
    expect(Object.keys(ports.TransactionServiceSoap!)).toEqual(SPEC_NAMES);
    expect(Object.keys(ports.TransactionServiceSoap12!)).toEqual(SPEC_NAMES);
  });

  it('the help pages list only the spec operations; ?op= of an extension is the service page, as an unknown one', async () => {
    const page = async (query: string) =>
      (await spec.app.inject({ method: 'GET', url: `${path}${query}` })).body;
    const service = await page('');
    const linked = [...service.matchAll(/href="TransactionService\.asmx\?op=([^"]+)"/g)].map((m) => m[1]);
    expect(linked).toEqual([...SPEC_NAMES].sort());
    expect(service).not.toContain('Payframe extension');
    for (const op of ['GetCheckoutSession', 'CreateHostedPayment', UNKNOWN]) {
      expect(await page(`?op=${op}`), op).toBe(service);
    }
    expect(await page('?op=CreateInvoice')).toContain('<h2>CreateInvoice</h2>');
    const fullHelp = (await full.app.inject({ method: 'GET', url: `${path}?op=GetCheckoutSession` })).body;
    expect(fullHelp).toContain('<h2>GetCheckoutSession</h2>');
  });

  // A merchant's and a service's operation, and a public one (GetInvitation: no credential needed).
  for (const extension of ['GetCheckoutSession', 'ListPayments', 'GetInvitation']) {
    for (const way of WAYS) {
      it(`${extension} by ${way.label} answers as an unknown operation, with and without a credential`, async () => {
        for (const who of [merchant, null]) {
          const asUnknown = await answer(spec.app, way, UNKNOWN, who);
          expect(await answer(spec.app, way, extension, who)).toEqual(asUnknown);
          // The same database's gateway serving the whole contract knows the operation.
          if (way.label === 'SOAP 1.1 (SOAPAction and Body)' && who !== null) {
            expect(await answer(full.app, way, extension, who)).not.toEqual(asUnknown);
          }
        }
      });
    }
  }

  it('an unknown operation answers as it always did: the SOAPAction fault, the GET/POST error text', async () => {
    const soap11 = await answer(spec.app, WAYS[0]!, UNKNOWN, merchant);
    expect(soap11.status).toBe(500);
    expect(soap11.body).toContain(`Server did not recognize the value of HTTP Header SOAPAction: ${NS}OP.`);
    const post = await answer(spec.app, WAYS[4]!, UNKNOWN, merchant);
    expect(post).toMatchObject({ status: 500, body: 'OP Web Service method name is not valid.\n' });
    expect((await answer(spec.app, WAYS[4]!, UNKNOWN, null)).status).toBe(401);
    // A public extension with no credential is refused before its body, as an unknown name is.
    expect((await answer(spec.app, WAYS[4]!, 'GetInvitation', null)).status).toBe(401);
    expect((await answer(full.app, WAYS[4]!, 'GetInvitation', null)).status).not.toBe(401);
  });

  it('the spec operations work: CreateInvoice, then GetHostedPaymentDetails on its InvoiceRandomNumber', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const invoice = await call(
      spec.app,
      'CreateInvoice',
      {
        invoiceRequest: {
          MerchantID: merchant.merchantId,
          ConvenienceFee: '0',
          ConvenienceFeePercentage: false,
          Invoices: [{ InvoiceNumber: 'SO-1', InvoiceAmount: '25.00', InvoiceDate: today }],
        },
      },
      merchant,
    );
    expect(invoice.Success).toBe(true);
    const details = await call(
      spec.app,
      'GetHostedPaymentDetails',
      { token: invoice.InvoiceRandomNumber },
      { service: SERVICE_KEY },
    );
    expect(details).toMatchObject({ Success: true, Amount: '25.00' });
  });

  it('the rest of the gateway role is unchanged: health and the 3-D Secure pages answer', async () => {
    expect((await spec.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    const a = await spec.app.inject({ method: 'GET', url: '/3ds/challenge/unknown' });
    const b = await full.app.inject({ method: 'GET', url: '/3ds/challenge/unknown' });
    const none = await spec.app.inject({ method: 'GET', url: '/no-such-page' });
    // The challenge route's own page (a nonce in it), not the router's 404.
    expect([a.statusCode, a.headers['content-type']]).toEqual([b.statusCode, b.headers['content-type']]);
    expect(a.headers['content-type']).not.toBe(none.headers['content-type']);
  });
});
