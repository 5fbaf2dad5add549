/**
 * Test support for the gateway's end-to-end tests (gateway-*.test.ts, conformance/zeep-scenario):
 * the real app on a test database with two merchants, and typed calls through the real SOAP 1.1
 * binding (`soapCall`), so every assertion reads what a merchant's client would read.
 */
import type { FastifyInstance } from 'fastify';
import { findOperation } from '../../../shared/contract/index.ts';
import type { OperationName } from '../../../shared/contract/operations.ts';
import type { OperationParams, OperationResult } from '../../../shared/contract/service.ts';
import type { Database } from '../../../server/db/database.ts';
import { encodeSoapRequest } from '../../../server/soap/codec/messages.ts';
import { buildTestApp, type TestApp } from '../app.ts';
import type { DatabaseTarget } from '../databases.ts';
import { type As, basic, NS, request, type SoapReply, soapCall } from './soap-call.ts';

export const SERVICE_KEY = 'service-key-for-gateway-tests-0123456789';
export const SHOP_ORIGIN = 'https://shop.example';

export interface TestMerchant {
  id: string;
  key: string;
  name: string;
  publicCode: string;
  as: { merchantId: string; key: string };
}

export interface GatewayWorld {
  db: Database;
  t: TestApp;
  app: FastifyInstance;
  /** Enrolled in 3-D Secure, with SHOP_ORIGIN registered. */
  a: TestMerchant;
  /** Another merchant, not enrolled. */
  b: TestMerchant;
  close(): Promise<void>;
}

export async function createMerchant(
  t: TestApp,
  db: Database,
  name: string,
  threeDsEnrolled: boolean,
): Promise<TestMerchant> {
  const { merchant, transactionKey } = await t.gateway.deps.merchants.create(db, {
    name,
    origins: [SHOP_ORIGIN],
    threeDsEnrolled,
    email: `billing@${name.toLowerCase().replace(/\W+/g, '-')}.example`,
  });
  return {
    id: merchant.id,
    key: transactionKey,
    name,
    publicCode: merchant.publicCode,
    as: { merchantId: merchant.id, key: transactionKey },
  };
}

export async function openWorld(
  target: DatabaseTarget,
  env: Record<string, string> = {},
): Promise<GatewayWorld> {
  const db = await target.open();
  const t = await buildTestApp(
    db,
    { LOG_LEVEL: 'warn', GATEWAY_SERVICE_KEY: SERVICE_KEY, ...env },
    { closeDatabase: true },
  );
  const a = await createMerchant(t, db, 'Alpha Outfitters', true);
  const b = await createMerchant(t, db, 'Bravo Bikes', false);
  return { db, t, app: t.app, a, b, close: () => t.close() };
}

/** An expiry date two years ahead, as MM/YY. */
export function futureExpiry(now = new Date()): string {
  return `12/${String((now.getUTCFullYear() + 2) % 100).padStart(2, '0')}`;
}

/** A fault as the client reads it: HTTP status, faultcode, faultstring and `<detail><ErrorCode>`. */
export interface Fault {
  status: number;
  faultCode?: string;
  message?: string;
  errorCode?: string;
  body: string;
  headers: Record<string, unknown>;
}

function xmlText(text: string): string {
  const entities: Record<string, string> = { lt: '<', gt: '>', quot: '"', apos: "'", amp: '&' };
  return text.replace(/&(lt|gt|quot|apos|amp);/g, (_m, name: string) => entities[name]!);
}

export function faultOf(status: number, body: string, headers: Record<string, unknown> = {}): Fault {
  const fault: Fault = { status, body, headers };
  const pick = (key: 'faultCode' | 'message' | 'errorCode', re: RegExp) => {
    const m = re.exec(body)?.[1];
    if (m !== undefined) fault[key] = xmlText(m);
  };
  pick('faultCode', /<faultcode>([\s\S]*?)<\/faultcode>/);
  pick('message', /<faultstring>([\s\S]*?)<\/faultstring>/);
  pick('errorCode', /<ErrorCode[^>]*>([\s\S]*?)<\/ErrorCode>/);
  return fault;
}

/** Calls an operation through SOAP 1.1; throws with the fault when it does not answer 200. */
export async function call<N extends OperationName>(
  app: FastifyInstance,
  op: N,
  params: OperationParams<N> | Record<string, unknown>,
  as: As,
): Promise<OperationResult<N>> {
  const reply: SoapReply = await soapCall(app, op, params as Record<string, unknown>, as);
  if (reply.status !== 200) throw new Error(`${op} answered ${reply.status}: ${reply.fault ?? reply.body}`);
  return reply.result as OperationResult<N>;
}

/**
 * A raw SOAP 1.1 call with a chosen client address (the auth throttle counts per address), answering
 * the status, headers and body, and the fault when there is one.
 */
export async function rawCall(
  app: FastifyInstance,
  op: string,
  params: Record<string, unknown>,
  as: As | { authorization: string },
  remoteAddress = '127.0.0.1',
  extraHeaders: Record<string, string> = {},
): Promise<Fault> {
  const operation = findOperation(op);
  if (!operation) throw new Error(`no operation ${op}`);
  const auth = as && 'authorization' in as ? { authorization: as.authorization } : basic(as);
  const res = await app.inject({
    method: 'POST',
    url: '/TransactionService.asmx',
    remoteAddress,
    headers: {
      ...extraHeaders,
      'content-type': 'text/xml; charset=utf-8',
      soapaction: `"${NS}${op}"`,
      ...auth,
    },
    payload: encodeSoapRequest(operation, params, NS, '1.1'),
  });
  return faultOf(res.statusCode, res.body, res.headers as Record<string, unknown>);
}

/** A ProcessTransaction request of this merchant: every Required element, then `fields`. */
export function pay(m: TestMerchant, fields: Record<string, unknown>): { request: Record<string, unknown> } {
  return { request: request({ MerchantID: m.id, ...fields }) };
}

/** A card sale's fields: the card, a future expiry, then `fields`. */
export function card(
  number: string,
  amount: string,
  fields: Record<string, unknown> = {},
): Record<string, unknown> {
  return { CardNumber: number, ExpirationDate: futureExpiry(), Amount: amount, ...fields };
}

export async function countRows(db: Database, sql: string, params: unknown[] = []): Promise<number> {
  const { rows } = await db.query<{ n: string | number }>(sql, params);
  return Number(rows[0]?.n ?? 0);
}

/** Completes a sandbox 3-D Secure challenge by its form, as the shopper's button does, and reads result.json. */
export async function completeChallenge(
  app: FastifyInstance,
  challengeUrl: string,
  outcome: 'authenticate' | 'fail' = 'authenticate',
): Promise<{
  status: string;
  cavv: string | null;
  eci: string | null;
  xid: string | null;
  dsTransactionId: string | null;
}> {
  const path = new URL(challengeUrl).pathname;
  const post = await app.inject({
    method: 'POST',
    url: path,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: `outcome=${outcome}`,
  });
  if (post.statusCode !== 200) throw new Error(`challenge answered ${post.statusCode}`);
  const result = await app.inject({ method: 'GET', url: `${path}/result.json` });
  return result.json();
}
