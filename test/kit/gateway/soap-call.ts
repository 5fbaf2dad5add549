/**
 * Calls an operation on the real app through the SOAP 1.1 binding (app.inject), as a merchant,
 * the checkout server or nobody, and decodes the result with the contract's codec.
 */
import type { FastifyInstance } from 'fastify';
import { findOperation, requiredDefaults } from '../../../shared/contract/index.ts';
import { decodeSoapResult, encodeSoapRequest } from '../../../server/soap/codec/messages.ts';
import { openEnvelope } from '../../../server/soap/soap-request.ts';
import { decodeBytes, readXml } from '../../../server/soap/xml/index.ts';

export const NS = 'http://tempuri.org/';

/** A merchant, the checkout server, a merchant user's Login session (`bearer`), or nobody. */
export type As = { merchantId: string; key: string } | { service: string } | { bearer: string } | null;

export function basic(as: As): Record<string, string> {
  if (!as) return {};
  if ('bearer' in as) return { authorization: `Bearer ${as.bearer}` };
  const pair = 'service' in as ? `service:${as.service}` : `${as.merchantId}:${as.key}`;
  return { authorization: `Basic ${Buffer.from(pair).toString('base64')}` };
}

export interface SoapReply {
  status: number;
  body: string;
  result?: unknown;
  fault?: string;
}

export async function soapCall(
  app: FastifyInstance,
  op: string,
  params: Record<string, unknown>,
  as: As,
): Promise<SoapReply> {
  const operation = findOperation(op);
  if (!operation) throw new Error(`no operation ${op}`);
  const res = await app.inject({
    method: 'POST',
    url: '/TransactionService.asmx',
    headers: { 'content-type': 'text/xml; charset=utf-8', soapaction: `"${NS}${op}"`, ...basic(as) },
    payload: encodeSoapRequest(operation, params, NS, '1.1'),
  });
  if (res.statusCode !== 200) {
    const fault = /<faultstring>([\s\S]*?)<\/faultstring>/.exec(res.body)?.[1];
    return { status: res.statusCode, body: res.body, ...(fault ? { fault } : {}) };
  }
  const body = openEnvelope(readXml(decodeBytes(res.rawPayload, 'text/xml; charset=utf-8'))).body;
  return { status: 200, body: res.body, result: decodeSoapResult(body, operation, NS) };
}

/** A Request (ProcessTransaction) with every Required element at its neutral value. */
export function request(fields: Record<string, unknown>): Record<string, unknown> {
  return { ...requiredDefaults('Request'), ...fields };
}
