import { Agent, createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';

/** A running round-robin balancer. */
export interface Balancer {
  /** `http://127.0.0.1:<port>/mcp`. */
  url: string;
  close(): Promise<void>;
}

/**
 * Round robin over `ports`, no session affinity: every request (POST, GET stream, DELETE) goes to the
 * next backend; `onget` hears which backend each GET (stream) request went to. Unlike the test kit's balancer (`@x/test-kit/balancer`, used by the Redis tests and the cluster demo, which opens a
 * connection per request and skips draining backends), it keeps connections to the backends alive, as a
 * production balancer does, so a bench call does not pay a TCP handshake per hop.
 *
 * @example
 * const lb = await startBalancer([4001, 4002, 4003], (port) => console.log('GET stream on', port));
 * // point clients at lb.url; await lb.close() at the end
 */
export async function startBalancer(ports: number[], onget: (port: number) => void): Promise<Balancer> {
  const agent = new Agent({ keepAlive: true });
  let next = 0;
  const server = createServer((req, res) => {
    const port = ports[next++ % ports.length] as number;
    if (req.method === 'GET') onget(port);
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
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      agent.destroy();
    },
  };
}

// As a process (`node balancer.js <port>…`), so its CPU is not the measuring client's: prints
// `{"port":N}` once listening, then `GET <backend port>` per stream request; exits when stdin closes.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const lb = await startBalancer(process.argv.slice(2).map(Number), (port) =>
    process.stdout.write(`GET ${port}\n`),
  );
  process.stdout.write(`${JSON.stringify({ port: Number(new URL(lb.url).port) })}\n`);
  process.stdin.on('end', () => void lb.close().then(() => process.exit(0))).resume();
}
