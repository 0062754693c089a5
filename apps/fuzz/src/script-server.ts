import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Answers one request to a script server; `body` is what the request carried (small: our own clients). */
export type Script = (request: IncomingMessage, response: ServerResponse, body: string) => void;

/** A raw `node:http` server on 127.0.0.1 whose answers a test swaps per run (the hostile party). */
export interface ScriptServer {
  /** `http://127.0.0.1:<port>`. */
  readonly origin: string;
  /** A port on 127.0.0.1 nothing listens on (connections are refused): a dead endpoint for URLs. */
  readonly closedPort: number;
  /** The current script; a request arriving without one gets 404. */
  script: Script | undefined;
  /** Requests served so far, by path. */
  readonly hits: Map<string, number>;
  close(): Promise<void>;
}

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/**
 * Starts a script server. Request bodies over 64 KiB are cut (our clients send small forms and JSON).
 *
 * @example
 * ```ts
 * const server = await startScriptServer();
 * server.script = (_req, res) => res.writeHead(500).end('no');
 * await fetch(`${server.origin}/anything`); // 500
 * await server.close();
 * ```
 */
export async function startScriptServer(): Promise<ScriptServer> {
  const hits = new Map<string, number>();
  const state: { script: Script | undefined } = { script: undefined };
  const http = createServer((request, response) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= 64 * 1024) chunks.push(chunk);
    });
    request.on('end', () => {
      const path = new URL(request.url ?? '/', 'http://x').pathname;
      hits.set(path, (hits.get(path) ?? 0) + 1);
      const script = state.script;
      if (script === undefined) response.writeHead(404).end();
      else script(request, response, Buffer.concat(chunks).toString('utf8'));
    });
    // A client that gives up (a size cap, an abort) resets the socket: nothing to answer then.
    response.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  const closedPort = await freePort();
  return {
    origin: `http://127.0.0.1:${port}`,
    closedPort,
    get script() {
      return state.script;
    },
    set script(script: Script | undefined) {
      state.script = script;
    },
    hits,
    close: async () => {
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
