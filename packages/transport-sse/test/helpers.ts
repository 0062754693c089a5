import { request as httpRequest } from 'node:http';
import type { IncomingMessage, OutgoingHttpHeaders, Server } from 'node:http';
import { afterEach } from 'vitest';
import { createSseHandler, type SseHandler } from '../src/index.js';
import type { SseHandlerOptions, SseServerTransport } from '../src/index.js';
import { toNodeHandler } from '../src/node/index.js';
import { startHttpServer, waitFor } from '@x/test-kit';

type Cleanup = () => Promise<void> | void;

/** Registers an afterEach that runs every cleanup added during the test, newest first. */
export function useCleanup(): (cleanup: Cleanup) => void {
  const cleanups: Cleanup[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  return (cleanup) => void cleanups.push(cleanup);
}

export interface SseHarness {
  server: Server;
  port: number;
  /** `http://127.0.0.1:<port>`. */
  origin: string;
  close: () => Promise<void>;
  sse: SseHandler;
  /** Every session transport handed to onsession, already started. */
  sessions: SseServerTransport[];
  url: string;
}

/**
 * Our SseServer behind the node adapter, mounted on `/sse`. Each session is passed to `attach` (to set
 * its handlers) and then started.
 */
export async function startSseServer(
  addCleanup: (cleanup: Cleanup) => void,
  options: Partial<SseHandlerOptions> = {},
  attach: (transport: SseServerTransport) => void = () => {},
): Promise<SseHarness> {
  const sessions: SseServerTransport[] = [];
  const sse = createSseHandler({
    onsession: async (transport) => {
      sessions.push(transport);
      attach(transport);
      await transport.start();
    },
    ...options,
  });
  const handler = toNodeHandler(sse);
  const http = await startHttpServer((req, res) => void handler(req, res));
  addCleanup(async () => {
    await sse.close();
    await http.close();
  });
  return {
    server: http.server,
    port: http.port,
    origin: http.url,
    close: http.close,
    sse,
    sessions,
    url: `${http.url}/sse`,
  };
}

export interface RawResponse {
  status: number;
  headers: IncomingMessage['headers'];
  body: string;
}

/** A plain node:http request, for headers fetch will not let us set (Host) and for raw bodies. */
export function rawRequest(options: {
  port: number;
  method: string;
  path: string;
  headers?: OutgoingHttpHeaders;
  body?: string | string[];
}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port: options.port,
        method: options.method,
        path: options.path,
        headers: options.headers,
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          body += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    const chunks = typeof options.body === 'string' ? [options.body] : (options.body ?? []);
    for (const chunk of chunks) req.write(chunk);
    req.end();
  });
}

export interface RawStream {
  status: number;
  headers: IncomingMessage['headers'];
  /** Everything received so far. */
  text: () => string;
  /** The POST endpoint from the first event, once it has arrived. */
  endpoint: () => Promise<string>;
  destroy: () => void;
}

/** Opens a GET event stream with node:http and keeps its raw text. */
export function openRawStream(options: {
  port: number;
  path: string;
  headers?: OutgoingHttpHeaders;
}): Promise<RawStream> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port: options.port, method: 'GET', path: options.path, headers: options.headers },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('error', () => {});
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          text: () => text,
          endpoint: async () => {
            await waitFor(() => /^event: endpoint\ndata: .*\n\n/.test(text));
            return /^event: endpoint\ndata: (.*)\n/.exec(text)?.[1] ?? '';
          },
          destroy: () => req.destroy(),
        });
      },
    );
    req.on('error', (error) => {
      if (!req.destroyed) reject(error);
    });
    req.end();
  });
}
