/**
 * A reference for the SOAP benchmark's `--ceiling` option, not a SOAP server: bare `node:http` that
 * reads the request body and answers with a constant, pre-rendered response (the one Payframe gives
 * for the same operation, passed in by the parent through BENCH_CEILING_RESPONSES). It shows what
 * one Node process can serve on this machine with no XML work at all.
 */
import http from 'node:http';
import { announce, exitWithParent, profileWhileServing } from './fixture.ts';

const responses = JSON.parse(process.env.BENCH_CEILING_RESPONSES ?? '{}') as Record<string, string>;
const bodies = new Map(Object.entries(responses).map(([action, body]) => [action, Buffer.from(body)]));

const server = http.createServer({ keepAlive: true }, (req, res) => {
  req.resume();
  req.on('end', () => {
    const action = String(req.headers.soapaction ?? '').replace(/"/g, '');
    const body = bodies.get(action);
    if (body === undefined) {
      res.writeHead(500).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'text/xml; charset=utf-8', 'content-length': body.length });
    res.end(body);
  });
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const address = server.address();
if (typeof address !== 'object' || address === null) throw new Error('no address');
const stopProfiling = await profileWhileServing('ceiling');
exitWithParent(async () => {
  await stopProfiling();
  await new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
});
announce(address.port);
