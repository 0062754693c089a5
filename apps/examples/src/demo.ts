// `pnpm demo`: the everything-server over every transport and both eras, each driven by the x-mcp
// client; prints one table and exits non-zero if any row fails.
import { fileURLToPath } from 'node:url';
import { Client, type ClientOptions } from '@x/client';
import type { Transport } from '@x/protocol';
import { SseClientTransport } from '@x/transport-sse';
import { StdioClientTransport } from '@x/transport-stdio';
import { StreamableHttpClientTransport } from '@x/transport-streamable-http';
import { GrpcClientTransport } from '@x/transport-grpc';
import { WebSocketClientTransport } from '@x/transport-ws';
import { createEverythingServer } from './everything-server.js';
import { type Hosted, hostGrpc, hostSse, hostStreamableHttp, hostWebSocket } from './hosting.js';

interface Row {
  transport: string;
  requested: ClientOptions['protocolVersion'];
  era?: string | undefined;
  version?: string | undefined;
  tools?: number | undefined;
  result?: string | undefined;
  latencyMs?: number | undefined;
  error?: string | undefined;
}

const CALLS = 20;

async function drive(row: Row, transport: Transport): Promise<void> {
  const client = new Client({ name: 'x-mcp-demo', version: '1.0.0' }, { protocolVersion: row.requested });
  try {
    await client.connect(transport);
    row.era = client.era;
    row.version = client.protocolVersion;
    row.tools = (await client.listTools()).tools.length;
    const timings: number[] = [];
    for (let i = 0; i < CALLS; i++) {
      const started = performance.now();
      const result = await client.callTool({ name: 'test_simple_text', arguments: {} });
      timings.push(performance.now() - started);
      const first = result.content[0];
      row.result = first?.type === 'text' ? first.text : JSON.stringify(first);
    }
    timings.sort((a, b) => a - b);
    row.latencyMs = timings[Math.floor(timings.length / 2)];
  } catch (error) {
    row.error = error instanceof Error ? error.message : String(error);
  } finally {
    await client.close().catch(() => undefined);
  }
}

function table(rows: Row[]): string {
  const header = ['transport', 'requested', 'era', 'version', 'tools', 'tool call result', 'median RTT'];
  const lines = rows.map((r) => [
    r.transport,
    String(r.requested),
    r.era ?? '-',
    r.version ?? '-',
    r.tools === undefined ? '-' : String(r.tools),
    r.error === undefined ? (r.result ?? '-') : `FAILED: ${r.error}`,
    r.latencyMs === undefined ? '-' : `${r.latencyMs.toFixed(2)} ms`,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => (l[i] ?? '').length)));
  const format = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  return [format(header), widths.map((w) => '-'.repeat(w)).join('  '), ...lines.map(format)].join('\n');
}

async function main(): Promise<number> {
  const server = createEverythingServer();
  const hosts: Hosted[] = [];
  try {
    const http = await hostStreamableHttp(server);
    const sse = await hostSse(server);
    const ws = await hostWebSocket(server);
    const grpc = await hostGrpc(server);
    hosts.push(http, sse, ws, grpc);
    const stdioServer = fileURLToPath(new URL('./stdio-server.js', import.meta.url));

    const plan: Array<[Row, () => Transport]> = [
      [
        { transport: 'stdio', requested: 'auto' },
        () => new StdioClientTransport({ command: process.execPath, args: [stdioServer] }),
      ],
      [
        { transport: 'Streamable HTTP', requested: 'legacy' },
        () => new StreamableHttpClientTransport(http.url),
      ],
      [
        { transport: 'Streamable HTTP', requested: 'modern' },
        () => new StreamableHttpClientTransport(http.url),
      ],
      [{ transport: 'legacy HTTP+SSE', requested: 'legacy' }, () => new SseClientTransport(sse.url)],
      [{ transport: 'WebSocket', requested: 'auto' }, () => new WebSocketClientTransport(ws.url)],
      [{ transport: 'gRPC', requested: 'auto' }, () => new GrpcClientTransport(grpc.url.href)],
    ];
    const rows: Row[] = [];
    for (const [row, open] of plan) {
      await drive(row, open());
      rows.push(row);
    }
    console.log(table(rows));
    const failed = rows.filter((r) => r.error !== undefined).length;
    console.log(
      failed === 0 ? `\nall ${rows.length} rows passed` : `\n${failed} of ${rows.length} rows failed`,
    );
    return failed === 0 ? 0 : 1;
  } finally {
    await Promise.all(hosts.map((h) => h.close()));
  }
}

process.exitCode = await main();
