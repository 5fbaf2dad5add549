/**
 * A TCP relay between a client and the PostgreSQL server that counts the client's turns: each time
 * the client speaks again after the server has answered (what the client sends before the answer
 * arrives is the same turn). Round trips, counted on the wire, for tests that pin them.
 */
import net from 'node:net';

export interface Relay {
  port: number;
  /** Client turns since the last reset. */
  turns(): number;
  reset(): void;
  close(): Promise<void>;
}

export async function wireRelay(target: URL): Promise<Relay> {
  let turns = 0;
  let lastFromServer = true;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    sockets.add(client).add(upstream);
    client.on('data', (chunk) => {
      if (lastFromServer) turns++;
      lastFromServer = false;
      upstream.write(chunk);
    });
    upstream.on('data', (chunk) => {
      lastFromServer = true;
      client.write(chunk);
    });
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    turns: () => turns,
    reset: () => {
      turns = 0;
      lastFromServer = true;
    },
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** `url` with its host and port replaced by the relay's. */
export function viaRelay(url: string, relay: Relay): string {
  const via = new URL(url);
  via.hostname = '127.0.0.1';
  via.port = String(relay.port);
  return via.toString();
}
