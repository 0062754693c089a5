import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { percentile } from '../stats.js';

const ECHO_SERVER = fileURLToPath(new URL('./echo-server.js', import.meta.url));
const ALIAS = fileURLToPath(new URL('./alias-register.js', import.meta.url));

/** Where the official-SDK server code runs: the genuine SDK, or aliased onto @x/compat. */
export type Side = 'official' | 'compat';
export type RowTransport = 'stdio' | 'http';

/** One measured run of the sequential echo window. */
export interface CellResult {
  callsPerSec: number;
  p50Ms: number;
  p99Ms: number;
  /** Server CPU time (user + system) over the window, per call. */
  cpuPerCallUs: number;
  /** The server process's peak RSS after the window. */
  serverPeakRssMiB: number;
  /** `$schema` of the echo tool's listed input schema: tells the two servers apart (draft-07 vs 2020-12). */
  schemaDialect: string;
}

export interface CellOptions {
  side: Side;
  transport: RowTransport;
  warmup: number;
  calls: number;
}

interface Stats {
  cpuUs: number;
  maxRssKiB: number;
}

function serverArgs(side: Side, mode: RowTransport): string[] {
  return [...(side === 'compat' ? ['--import', ALIAS] : []), ECHO_SERVER, mode];
}

/** Starts the HTTP server and resolves with its URL once it reports its port. */
function startHttp(side: Side): Promise<{ url: URL; child: ChildProcess }> {
  const child = spawn(process.execPath, serverArgs(side, 'http'), { stdio: ['ignore', 'ignore', 'pipe'] });
  let output = '';
  return new Promise((resolve, reject) => {
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const port = /LISTENING (\d+)/.exec(output)?.[1];
      if (port !== undefined) resolve({ url: new URL(`http://127.0.0.1:${port}/mcp`), child });
    });
    child.once('exit', (code) =>
      reject(new Error(`echo server exited (${code}) before listening:\n${output}`)),
    );
  });
}

async function stats(client: Client): Promise<Stats> {
  const result = await client.callTool({ name: 'stats', arguments: {} });
  const first = (result.content as Array<{ type: string; text?: string }>)[0];
  return JSON.parse(first?.text ?? '{}') as Stats;
}

/**
 * Runs one cell: a fresh server process, the official 1.x client, `warmup` then `calls` sequential
 * `tools/call` of `echo`, each timed.
 */
export async function runCell(options: CellOptions): Promise<CellResult> {
  let child: ChildProcess | undefined;
  let transport: Transport;
  if (options.transport === 'stdio') {
    const [first, ...rest] = serverArgs(options.side, 'stdio');
    transport = new StdioClientTransport({ command: process.execPath, args: [first ?? '', ...rest] });
  } else {
    const started = await startHttp(options.side);
    child = started.child;
    transport = new StreamableHTTPClientTransport(started.url);
  }
  const exited = child === undefined ? undefined : new Promise((resolve) => child?.once('exit', resolve));
  const client = new Client({ name: 'compat-row', version: '1.0.0' });
  try {
    await client.connect(transport);
    const { tools } = await client.listTools();
    const echo = tools.find((tool) => tool.name === 'echo');
    const schemaDialect = String((echo?.inputSchema as { $schema?: unknown } | undefined)?.$schema ?? 'none');
    const args = { name: 'echo', arguments: { text: 'hello' } };
    for (let i = 0; i < options.warmup; i++) await client.callTool(args);
    const before = await stats(client);
    const latencies = new Float64Array(options.calls);
    const start = process.hrtime.bigint();
    for (let i = 0; i < options.calls; i++) {
      const t0 = process.hrtime.bigint();
      await client.callTool(args);
      latencies[i] = Number(process.hrtime.bigint() - t0) / 1e6;
    }
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    const after = await stats(client);
    return {
      callsPerSec: options.calls / seconds,
      p50Ms: percentile(latencies, 50),
      p99Ms: percentile(latencies, 99),
      cpuPerCallUs: (after.cpuUs - before.cpuUs) / options.calls,
      serverPeakRssMiB: after.maxRssKiB / 1024,
      schemaDialect,
    };
  } finally {
    await client.close();
    if (child !== undefined && child.exitCode === null) child.kill();
    await exited;
  }
}
