// What the tests against the real everything-server share.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Client } from '@x/client';
import { type HttpServerHandle, startHttpServer } from '@x/test-kit';
import { StdioClientTransport, type StdioClientTransportOptions } from '@x/transport-stdio';
import { createStreamableHttpHandler, StreamableHttpClientTransport } from '@x/transport-streamable-http';
import { toNodeHandler } from '@x/transport-streamable-http/node';
import { afterEach } from 'vitest';
import { type Bridge, createBridge } from '../src/index.js';

/** The official reference server's stdio entry (`@modelcontextprotocol/server-everything`). */
export const EVERYTHING = join(
  dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/package.json')),
  'dist',
  'index.js',
);

/** Whether a process with this pid is still running. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Steps a test file runs (last first) after each test: what a helper started is closed there. */
export type Cleanup = Array<() => Promise<unknown>>;

/** The calling test file's cleanup steps, run last first after each of its tests. */
export function cleanupAfterEach(): Cleanup {
  const steps: Cleanup = [];
  afterEach(async () => {
    for (const step of steps.splice(0).reverse()) await step().catch(() => undefined);
  });
  return steps;
}

export interface BridgedEverything {
  http: HttpServerHandle;
  bridge: Bridge;
  /** The upstream transports spawned so far, one per downstream session. */
  upstreams: StdioClientTransport[];
}

/**
 * A bridge's `upstream` factory: a new server-everything stdio process each call, every transport kept in
 * `upstreams` (for pids and kills); `restart` is the stdio transport's option.
 */
export function everythingUpstream(
  upstreams: StdioClientTransport[],
  restart?: StdioClientTransportOptions['restart'],
): () => StdioClientTransport {
  return () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [EVERYTHING, 'stdio'],
      stderr: 'ignore',
      ...(restart === undefined ? {} : { restart }),
    });
    upstreams.push(transport);
    return transport;
  };
}

/** server-everything (stdio, one process per session) bridged to Streamable HTTP on 127.0.0.1. */
export async function startBridgedEverything(
  cleanup: Cleanup,
  options: { connectTimeoutMs?: number; shared?: boolean } = {},
): Promise<BridgedEverything> {
  const upstreams: StdioClientTransport[] = [];
  const bridge = createBridge({
    upstream: everythingUpstream(upstreams),
    upstreamName: 'server-everything',
    upstreamConnectTimeoutMs: options.connectTimeoutMs ?? 20_000,
    shared: options.shared,
  });
  const handler = createStreamableHttpHandler({
    onsession: (transport) => bridge.connect(transport).catch(() => undefined),
  });
  const http = await startHttpServer(toNodeHandler(handler));
  cleanup.push(
    () => http.close(),
    () => bridge.close(),
    async () => {
      for (const upstream of upstreams) await upstream.close();
    },
  );
  return { http, bridge, upstreams };
}

/** What a test client answers every elicitation with. */
export type Elicited = Record<string, string | boolean>;

/** An x-mcp client of the bridge at `url` (closed by `cleanup`); legacy unless `era` says otherwise. */
export async function connectXClient(
  cleanup: Cleanup,
  url: string,
  options: {
    elicited?: Elicited | undefined;
    timeoutMs?: number | undefined;
    era?: 'legacy' | 'modern' | undefined;
  } = {},
): Promise<Client> {
  const client = new Client(
    { name: 'x-downstream', version: '1.0.0' },
    {
      protocolVersion: options.era ?? 'legacy',
      ...(options.timeoutMs === undefined ? {} : { timeout: options.timeoutMs }),
    },
  );
  const { elicited } = options;
  if (elicited !== undefined) client.setElicitationHandler(() => ({ action: 'accept', content: elicited }));
  await client.connect(new StreamableHttpClientTransport(`${url}/mcp`));
  cleanup.push(() => client.close());
  return client;
}

/**
 * Starts server-everything's `trigger-long-running-operation` (long enough never to finish in a test)
 * and resolves once its first progress arrived: the call is then in flight upstream.
 */
export async function longCallInFlight(client: Client): Promise<{ call: Promise<unknown> }> {
  let progressed!: () => void;
  const firstProgress = new Promise<void>((resolve) => {
    progressed = resolve;
  });
  const call = client.callTool(
    { name: 'trigger-long-running-operation', arguments: { duration: 60, steps: 60 } },
    { onprogress: () => progressed() },
  );
  call.catch(() => undefined);
  await firstProgress;
  return { call };
}

/** What client `i` answers server-everything's `trigger-elicitation-request` with. */
export function elicitedBy(i: number): Elicited {
  return { name: `client-${i}`, check: true, email: `c${i}@example.com` };
}

/** A result of client `i` names client `i` and no other client. */
export function namesOnlyClient(text: string, i: number): boolean {
  return text.includes(`client-${i}`) && !new RegExp(`client-(?!${i}\\b)\\d`).test(text);
}
