/**
 * A fault-injecting TCP proxy for the split wiring's tests (issue 19 §1), loopback only: the
 * checkout's TRANSACTION_SERVICE_URL points at it, it forwards to the gateway, and it breaks what it
 * carries the way networks and load balancers do. The fault is chosen per HTTP request (a chunk from
 * the client that begins a request line), so a kept-alive connection meets faults too:
 *   - `delay`: the request waits 50–800 ms before it is forwarded;
 *   - `reset-request`: the connection is reset before the gateway sees a byte of the request;
 *   - `stall-request`: the request is held and never forwarded; the client gives up on its timeout;
 *   - `late-request`: the request is held past the client's timeout, then forwarded (the gateway acts
 *     on a request whose sender has already given up), its answer dropped;
 *   - `reset-answer`: forwarded; the connection is reset when the answer begins;
 *   - `cut-answer`: forwarded; a few bytes of the answer are passed on, then the connection closes;
 *   - `stall-answer`: forwarded; the answer is held until the client gives up.
 * With faults off (`rate` 0) it is a plain forwarder. `faultNext` picks the fault of one chosen
 * request (the next whose head holds a text, e.g. its SOAPAction), whatever the rate.
 */
import net from 'node:net';

export const FAULTS = [
  'delay',
  'reset-request',
  'stall-request',
  'late-request',
  'reset-answer',
  'cut-answer',
  'stall-answer',
] as const;
export type Fault = (typeof FAULTS)[number];

export interface FaultProxyOptions {
  /** The gateway's port on 127.0.0.1. */
  targetPort: number;
  /** How long `late-request` holds a request: more than the client's timeout. */
  lateMs: number;
}

const REQUEST_LINE = /^(GET|POST|PUT|DELETE|HEAD|OPTIONS|PATCH) \//;

export class FaultProxy {
  /** The share of requests that meet a fault (0: none). */
  rate = 0;
  /** How many requests met each fault, and how many passed. */
  readonly counts: Record<Fault | 'pass', number> = Object.fromEntries(
    [...FAULTS, 'pass'].map((f) => [f, 0]),
  ) as Record<Fault | 'pass', number>;
  readonly port: number;
  private readonly sockets = new Set<net.Socket>();
  private readonly forced: { match: string; fault: Fault }[] = [];

  private constructor(
    private readonly server: net.Server,
    private readonly options: FaultProxyOptions,
  ) {
    this.port = (server.address() as net.AddressInfo).port;
  }

  static async start(options: FaultProxyOptions): Promise<FaultProxy> {
    const server = net.createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    const proxy = new FaultProxy(server, options);
    server.on('connection', (client) => proxy.carry(client));
    return proxy;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private track(socket: net.Socket): net.Socket {
    this.sockets.add(socket);
    socket.once('close', () => this.sockets.delete(socket));
    socket.on('error', () => {}); // a reset or a dead gateway: handled by closing both sides
    return socket;
  }

  /** The next request whose first chunk (its request line and headers) contains `match` meets `fault`. */
  faultNext(match: string, fault: Fault): void {
    this.forced.push({ match, fault });
  }

  private choose(head: string): Fault | 'pass' {
    const i = this.forced.findIndex((f) => head.includes(f.match));
    const fault =
      i >= 0
        ? this.forced.splice(i, 1)[0]!.fault
        : Math.random() < this.rate
          ? FAULTS[Math.floor(Math.random() * FAULTS.length)]!
          : ('pass' as const);
    this.counts[fault]++;
    return fault;
  }

  private carry(client: net.Socket): void {
    this.track(client);
    const upstream = this.track(net.connect(this.options.targetPort, '127.0.0.1'));
    /** The fault of the request now on this connection. */
    let fault: Fault | 'pass' = 'pass';
    let held = false;
    const end = (reset: boolean) => {
      if (reset) client.resetAndDestroy();
      else client.destroy();
      upstream.destroy();
    };
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());

    client.on('data', (chunk) => {
      if (REQUEST_LINE.test(chunk.subarray(0, 16).toString('latin1'))) {
        fault = this.choose(chunk.toString('latin1'));
        held = false;
      }
      switch (fault) {
        case 'reset-request':
          return end(true);
        case 'stall-request':
          held = true;
          return; // swallowed: the gateway never sees it
        case 'late-request':
          held = true;
          setTimeout(() => {
            if (!upstream.destroyed) upstream.write(chunk);
          }, this.options.lateMs);
          return;
        case 'delay': {
          const wait = 50 + Math.floor(Math.random() * 750);
          client.pause();
          setTimeout(() => {
            if (!upstream.destroyed) upstream.write(chunk);
            client.resume();
          }, wait);
          return;
        }
        default:
          upstream.write(chunk);
      }
    });

    upstream.on('data', (chunk) => {
      switch (fault) {
        case 'reset-answer':
          return end(true);
        case 'cut-answer':
          client.write(chunk.subarray(0, 1 + Math.floor(Math.random() * 120)));
          return end(false);
        case 'stall-answer':
        case 'late-request':
        case 'stall-request':
          return; // dropped: the client has given up, or will
        default:
          if (!held) client.write(chunk);
      }
    });
  }
}
