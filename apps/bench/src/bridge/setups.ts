import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer, connect as tcpConnect } from 'node:net';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { Client } from '@x/client';
import type { Transport } from '@x/protocol';
import { StdioClientTransport } from '@x/transport-stdio';
import { StreamableHttpClientTransport } from '@x/transport-streamable-http';
import { serverCommand } from '../server-command.js';

/** The rows of the report, in order. */
export const SETUP_NAMES = ['direct', 'bridge-raw', 'bridge-translate', 'mcp-proxy'] as const;
export type SetupName = (typeof SETUP_NAMES)[number];

/** What each row is, for the report. */
export const SETUP_LABELS: Record<SetupName, string> = {
  direct: 'stdio server, reached directly (client over stdio)',
  'bridge-raw': '`@x/bridge` raw mode, stdio → Streamable HTTP',
  'bridge-translate': '`@x/bridge` translating mode, stdio → Streamable HTTP',
  'mcp-proxy': `\`mcp-proxy\` ${mcpProxyVersion()}, stdio → Streamable HTTP`,
};

/** A running setup: connect one client to it, then close it (every process it started exits). */
export interface Endpoint {
  connect(): Promise<Client>;
  close(): Promise<void>;
}

const BRIDGE_SERVER = fileURLToPath(new URL('./bridge-server.js', import.meta.url));
/** How long a spawned front (bridge, mcp-proxy) may take to listen. */
const LISTEN_TIMEOUT_MS = 30_000;
/** How long a front has to exit after its stdin closed (or after SIGTERM) before SIGKILL. */
const EXIT_GRACE_MS = 5_000;

/** The same upstream for every row: the bench's x-mcp echo server on stdio (`dist/server.js`). */
function upstreamCommand(): { command: string; args: string[] } {
  return serverCommand({ sdk: 'x-mcp', transport: 'stdio', controlPort: 0 });
}

function mcpProxyBin(): string {
  const manifest = createRequire(import.meta.url).resolve('mcp-proxy/package.json');
  const { bin } = JSON.parse(readFileSync(manifest, 'utf8')) as { bin: Record<string, string> };
  return join(dirname(manifest), bin['mcp-proxy'] ?? 'dist/bin/mcp-proxy.mjs');
}

export function mcpProxyVersion(): string {
  const manifest = createRequire(import.meta.url).resolve('mcp-proxy/package.json');
  return (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version;
}

/** The legacy-era x-mcp client every row uses (the era every front here carries). */
async function connectClient(transport: Transport): Promise<Client> {
  const client = new Client({ name: 'bench-client', version: '1.0.0' }, { protocolVersion: 'legacy' });
  await client.connect(transport);
  return client;
}

export async function startSetup(name: SetupName): Promise<Endpoint> {
  switch (name) {
    case 'direct': {
      const { command, args } = upstreamCommand();
      return {
        connect: () => connectClient(new StdioClientTransport({ command, args })),
        close: async () => {},
      };
    }
    case 'bridge-raw':
    case 'bridge-translate': {
      const mode = name === 'bridge-raw' ? 'raw' : 'translate';
      const child = spawn(process.execPath, [BRIDGE_SERVER, mode, JSON.stringify(upstreamCommand())], {
        stdio: ['pipe', 'pipe', 'inherit'],
      });
      const port = await firstLine(child, name).then((line) => (JSON.parse(line) as { port: number }).port);
      return httpEndpoint(child, port);
    }
    case 'mcp-proxy': {
      const port = await freePort();
      const { command, args } = upstreamCommand();
      // Its defaults otherwise (event store on, both eras served): what `npx mcp-proxy` users run.
      const proxyArgs = ['--server', 'stream', '--host', '127.0.0.1', '--port', String(port), '--', command];
      const child = spawn(process.execPath, [mcpProxyBin(), ...proxyArgs, ...args], {
        stdio: ['pipe', 'pipe', 'inherit'],
      });
      // It says so just before `listen`; the port accepts a moment later.
      await firstLine(child, name);
      await acceptsConnections(port, child, name);
      return httpEndpoint(child, port, true);
    }
  }
}

/** `signalFirst`: a child that does not watch its stdin (mcp-proxy) gets SIGTERM at once. */
function httpEndpoint(child: ChildProcess, port: number, signalFirst = false): Endpoint {
  return {
    connect: () => connectClient(new StreamableHttpClientTransport(`http://127.0.0.1:${port}/mcp`)),
    close: () => stop(child, signalFirst),
  };
}

/** The child's first stdout line; rejects when it exits or stays silent too long. */
function firstLine(child: ChildProcess, what: string): Promise<string> {
  const reader = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  return new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${what} did not start within ${LISTEN_TIMEOUT_MS} ms`)),
      LISTEN_TIMEOUT_MS,
    );
    reader.once('line', (line) => {
      clearTimeout(timer);
      // Keep draining its stdout so a chatty child never blocks on a full pipe.
      child.stdout?.resume();
      resolve(line);
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${what} exited (${code ?? signal}) before listening`));
    });
  });
}

/** Resolves once `port` accepts a TCP connection (each failed attempt is retried at the next tick of I/O). */
async function acceptsConnections(port: number, child: ChildProcess, what: string): Promise<void> {
  const deadline = performance.now() + LISTEN_TIMEOUT_MS;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${what} exited (${child.exitCode}) before listening`);
    const accepted = await new Promise<boolean>((resolve) => {
      const socket = tcpConnect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (accepted) return;
    if (performance.now() > deadline)
      throw new Error(`${what} did not listen on ${port} within ${LISTEN_TIMEOUT_MS} ms`);
  }
}

/** A loopback port free right now (for a child that cannot report the port it bound). */
function freePort(): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address !== null
          ? resolve(address.port)
          : reject(new Error('no port')),
      );
    });
  });
}

/** Closes the child's stdin, then SIGTERM (at once with `signalFirst`), then SIGKILL; resolves once it exited. */
async function stop(child: ChildProcess, signalFirst: boolean): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.stdin?.end();
  const term = setTimeout(() => child.kill('SIGTERM'), signalFirst ? 0 : EXIT_GRACE_MS);
  const kill = setTimeout(() => child.kill('SIGKILL'), 2 * EXIT_GRACE_MS);
  await exited;
  clearTimeout(term);
  clearTimeout(kill);
}
