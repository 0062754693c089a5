import { Agent, createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A running round-robin balancer. */
export interface Balancer {
  /** `http://127.0.0.1:<port>/mcp`. */
  url: string;
  /** The backend port of each GET (stream) request forwarded so far, in order. */
  getPorts: number[];
  close(): Promise<void>;
}

/**
 * Round robin over `ports`, no session affinity: every request (POST, GET stream, DELETE) goes to the
 * next backend. Unlike the cluster demo's balancer (`apps/examples/src/cluster-demo.ts`, which opens a
 * connection per request and skips draining backends), it keeps connections to the backends alive, as a
 * production balancer does, so a bench call does not pay a TCP handshake per hop.
 *
 * @example
 * const lb = await startBalancer([4001, 4002, 4003]);
 * // point clients at lb.url; await lb.close() at the end
 */
export async function startBalancer(ports: number[]): Promise<Balancer> {
  const agent = new Agent({ keepAlive: true });
  const getPorts: number[] = [];
  let next = 0;
  const server = createServer((req, res) => {
    const port = ports[next++ % ports.length] as number;
    if (req.method === 'GET') getPorts.push(port);
    const upstream = httpRequest(
      { host: '127.0.0.1', port, method: req.method, path: req.url, headers: req.headers, agent },
      (reply) => {
        res.writeHead(reply.statusCode ?? 502, reply.headers);
        reply.pipe(res);
        reply.on('error', () => res.destroy());
      },
    );
    upstream.on('error', () => (res.headersSent ? res.destroy() : res.writeHead(502).end()));
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    getPorts,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      agent.destroy();
    },
  };
}
