// Example: a client that rides out failures (issue 28). One McpServer is served over WebSocket and
// Streamable HTTP; the client uses a FailoverTransport (WebSocket first) and a retry policy. The
// WebSocket server is killed while a read-only call is in flight: the transport switches to HTTP, the
// call is re-sent there, and once the WebSocket server is back the client switches back between
// requests. Then a stdio server (this file, run with --crashing-stdio-server) crashes on a call and
// StdioClientTransport's `restart` brings it back; the retry policy repeats the call on the new process.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, type FailoverEvent, FailoverTransport } from '@x/client';
import { McpServer } from '@x/server';
import { StdioClientTransport, StdioServerTransport } from '@x/transport-stdio';
import { createStreamableHttpHandler, StreamableHttpClientTransport } from '@x/transport-streamable-http';
import { toNodeHandler } from '@x/transport-streamable-http/node';
import { WebSocketClientTransport } from '@x/transport-ws';
import { listenWebSocket } from '@x/transport-ws/node';

const text = (value: string) => ({ content: [{ type: 'text' as const, text: value }] });

if (process.argv.includes('--crashing-stdio-server')) {
  // The stdio server of part two: `report` crashes the process once (marker file absent), then answers.
  const marker = process.env['MARKER']!;
  const server = new McpServer({ name: 'crashing', version: '1.0.0' });
  server.registerTool('report', { annotations: { readOnlyHint: true } }, () => {
    if (!existsSync(marker)) {
      writeFileSync(marker, '');
      console.error('crashing: out of memory (simulated)');
      process.exit(3);
    }
    return text(`report from process ${process.pid}`);
  });
  await server.connect(new StdioServerTransport());
} else {
  await failover();
  await stdioRestart();
}

async function failover(): Promise<void> {
  const server = new McpServer({ name: 'resilient', version: '1.0.0' });
  let release: (() => void) | undefined;
  let runs = 0;
  server.registerTool('forecast', { annotations: { readOnlyHint: true } }, async (_args, ctx) => {
    runs++;
    // Held open until the example releases it (or the connection dies), so it is in flight at the kill.
    await new Promise<void>((resolve) => {
      release = resolve;
      ctx.signal.addEventListener('abort', () => resolve());
    });
    return text('sunny');
  });

  let ws = await listenWebSocket({ port: 0, onsession: (transport) => server.connect(transport) });
  const port = Number(ws.url!.port);
  const handler = createStreamableHttpHandler({ onsession: (transport) => server.connect(transport) });
  const http = createServer(toNodeHandler(handler));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const httpUrl = new URL(`http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`);

  const events: FailoverEvent[] = [];
  let restored: () => void = () => {};
  const back = new Promise<void>((resolve) => {
    restored = resolve;
  });
  const transport = new FailoverTransport({
    transports: [
      { name: 'websocket', create: () => new WebSocketClientTransport(`ws://127.0.0.1:${port}/mcp`) },
      { name: 'streamable-http', create: () => new StreamableHttpClientTransport(httpUrl) },
    ],
    probe: { initialDelayMs: 50, maxDelayMs: 500 },
    onevent: (event) => {
      events.push(event);
      if (event.type !== 'probing') console.log(`${event.type}: ${event.from} → ${event.to}`);
      if (event.type === 'restored') restored();
    },
  });
  const retries: string[] = [];
  const client = new Client(
    { name: 'resilient-client', version: '1.0.0' },
    { retry: { initialDelayMs: 20, maxDelayMs: 500, onretry: ({ method }) => retries.push(method) } },
  );
  try {
    await client.connect(transport);
    await client.listTools(); // the client learns which tools are read-only (safe to repeat)
    const call = client.callTool({ name: 'forecast' });
    while (runs === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    await ws.close(); // the WebSocket server dies with the call in flight
    while (runs < 2) await new Promise((resolve) => setTimeout(resolve, 5));
    release?.();
    const result = await call;
    assert.deepEqual(result.content, text('sunny').content);
    assert.deepEqual(retries, ['tools/call']);
    console.log(`forecast re-sent over ${transport.activeName} after the WebSocket died: sunny`);

    ws = await listenWebSocket({ port, onsession: (t) => server.connect(t) });
    await back;
    assert.equal(transport.activeName, 'websocket');
    assert.ok(events.some((e) => e.type === 'probing'));
    console.log('WebSocket is back: switched back between requests');
  } finally {
    await client.close();
    await ws.close();
    await handler.close();
    await new Promise<void>((resolve) => http.close(() => resolve()));
  }
}

async function stdioRestart(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'x-mcp-example-'));
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [fileURLToPath(import.meta.url), '--crashing-stdio-server'],
    env: { MARKER: join(dir, 'crashed') },
    stderr: 'pipe',
    restart: { initialDelayMs: 50, maxAttempts: 3, windowMs: 60_000 },
  });
  transport.stderr?.resume();
  const client = new Client({ name: 'stdio-client', version: '1.0.0' }, { retry: { initialDelayMs: 50 } });
  const crashes: string[] = [];
  client.onerror = (error) => crashes.push(error.message);
  try {
    await client.connect(transport);
    const firstPid = transport.pid;
    await client.listTools();
    const result = await client.callTool({ name: 'report' });
    assert.equal(transport.restarts, 1);
    assert.notEqual(transport.pid, firstPid);
    assert.ok(crashes.some((message) => message.includes('exited with code 3')));
    assert.ok(crashes.some((message) => message.includes('crashing: out of memory (simulated)')));
    console.log(`stdio server crashed (exit code 3, its last stderr line reported) and was restarted once`);
    console.log(
      `the call was repeated on the new process: ${(result.content[0] as { text: string }).text.replace(/\d+/, 'N')}`,
    );
  } finally {
    await client.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
