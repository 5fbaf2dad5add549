/**
 * One webhook POST, safe against server-side request forgery (security-requirements.md XSS-2's
 * SSRF rules applied to webhook URLs): the host's addresses are resolved and checked in the
 * connection's own `lookup`, so a DNS answer cannot change between the check and the connect
 * (rebinding); loopback, private, link-local and metadata addresses are refused unless allowed
 * (development, tests). Redirects are not followed. The answer's first 1 KB is kept (the dashboard
 * shows it), the rest read and dropped.
 */
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';

const blocked = new net.BlockList();
for (const [prefix, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(prefix, bits, 'ipv4');
}
for (const [prefix, bits] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  blocked.addSubnet(prefix, bits, 'ipv6');
}

export function isPrivateAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family === 6) {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
    return mapped ? blocked.check(mapped, 'ipv4') : blocked.check(address, 'ipv6');
  }
  return true;
}

export class WebhookAddressError extends Error {
  constructor() {
    super('The webhook URL resolves to an address that is not allowed.');
    this.name = 'WebhookAddressError';
  }
}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | dns.LookupAddress[],
  family?: number,
) => void;

function guardedLookup(hostname: string, options: dns.LookupOptions, callback: LookupCallback): void {
  dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, '');
    const list = addresses as dns.LookupAddress[];
    if (list.length === 0 || list.some((a) => isPrivateAddress(a.address))) {
      return callback(new WebhookAddressError() as NodeJS.ErrnoException, '');
    }
    if (options.all) return callback(null, list);
    const first = list[0]!;
    callback(null, first.address, first.family);
  });
}

/** How much of an answer's body is kept: the dashboard shows the response's first 1 KB. */
export const RESPONSE_HEAD_BYTES = 1024;

export interface WebhookAnswer {
  status: number;
  /** The first RESPONSE_HEAD_BYTES bytes of the answer's body. */
  head: Buffer;
}

/** POSTs `body` as JSON; answers the HTTP status and the body's head (throws on network errors and refused addresses). */
export function postWebhook(
  url: string,
  headers: Record<string, string>,
  body: string,
  options: { timeoutMs: number; allowPrivateNetworks: boolean },
): Promise<WebhookAnswer> {
  const target = new URL(url);
  const host = target.hostname.replace(/^\[|\]$/g, '');
  if (!options.allowPrivateNetworks && net.isIP(host) && isPrivateAddress(host)) {
    return Promise.reject(new WebhookAddressError());
  }
  const client = target.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = client.request(
      target,
      {
        method: 'POST',
        headers: {
          ...headers,
          'content-type': 'application/json; charset=utf-8',
          'content-length': String(Buffer.byteLength(body)),
          'user-agent': 'Payframe-Webhooks/1',
        },
        signal: AbortSignal.timeout(options.timeoutMs),
        ...(options.allowPrivateNetworks ? {} : { lookup: guardedLookup as unknown as typeof dns.lookup }),
      },
      (res) => {
        const chunks: Buffer[] = [];
        let kept = 0;
        res.on('data', (chunk: Buffer) => {
          if (kept >= RESPONSE_HEAD_BYTES) return;
          const part = chunk.subarray(0, RESPONSE_HEAD_BYTES - kept);
          chunks.push(part);
          kept += part.length;
        });
        res.on('error', reject);
        res.on('end', () => resolve({ status: res.statusCode ?? 0, head: Buffer.concat(chunks) }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
