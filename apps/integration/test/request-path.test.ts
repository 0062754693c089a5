import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import { McpServer } from '@x/server';
import { StdioServerTransport } from '@x/transport-stdio';
import { createStreamableHttpHandler } from '@x/transport-streamable-http';
import { toNodeHandler } from '@x/transport-streamable-http/node';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';

// Issue #25 ("a request path a newcomer can follow"): a `tools/call` crosses at most 8 source files of
// packages/*/src from the stdio transport to the tool handler (12 for Streamable HTTP behind the Node
// adapter). Measured from the handler's own stack, async frames included (V8 keeps the `await` chain).

const SOURCE_FILE = /packages\/[\w-]+\/src\/[\w/.-]+\.ts/g;

/** The distinct package source files on the stack right now, in stack order (innermost first). */
function sourceFilesOnStack(): string[] {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = Number.POSITIVE_INFINITY;
  const stack = new Error('probe').stack ?? '';
  Error.stackTraceLimit = limit;
  return [...new Set(stack.match(SOURCE_FILE) ?? [])];
}

function probeServer(): { server: McpServer; seen: Promise<string[]> } {
  const server = new McpServer({ name: 'path-probe', version: '1.0.0' });
  let report!: (files: string[]) => void;
  const seen = new Promise<string[]>((resolve) => {
    report = resolve;
  });
  server.registerTool('probe', { inputSchema: z.object({ text: z.string() }) }, ({ text }) => {
    report(sourceFilesOnStack());
    return { content: [{ type: 'text', text }] };
  });
  return { server, seen };
}

const disposers: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const dispose of disposers.splice(0)) await dispose();
});

const CALL = { name: 'probe', arguments: { text: 'hi' } };
const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};

async function overStdio(messages: object[]): Promise<string[]> {
  const { server, seen } = probeServer();
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  stdout.resume();
  const transport = new StdioServerTransport({ stdin, stdout });
  await server.connect(transport);
  disposers.push(() => server.close());
  for (const message of messages) stdin.write(`${JSON.stringify(message)}\n`);
  return seen;
}

describe('request path: source files from transport to tool handler', () => {
  it('legacy tools/call over stdio crosses at most 8 files', async () => {
    const files = await overStdio([
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } },
      },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: CALL },
    ]);
    console.log(`stdio legacy tools/call: ${files.length} files\n  ${files.join('\n  ')}`);
    expect(files.some((file) => file.includes('transport-stdio/src/'))).toBe(true);
    expect(files.length).toBeLessThanOrEqual(8);
  });

  it('modern tools/call over stdio crosses at most 8 files', async () => {
    const files = await overStdio([
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { ...CALL, _meta: MODERN_META } },
    ]);
    console.log(`stdio modern tools/call: ${files.length} files\n  ${files.join('\n  ')}`);
    expect(files.some((file) => file.includes('transport-stdio/src/'))).toBe(true);
    expect(files.length).toBeLessThanOrEqual(8);
  });

  it('legacy tools/call over Streamable HTTP behind the Node adapter crosses at most 12 files', async () => {
    const { server, seen } = probeServer();
    const handler = createStreamableHttpHandler({
      onsession: async (transport) => {
        await server.connect(transport);
      },
    });
    const http = createServer(toNodeHandler(handler));
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    disposers.push(async () => {
      await handler.close();
      await server.close();
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    });
    const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const init = await fetch(url, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } },
      }),
    });
    await init.text();
    const session = { ...headers, 'mcp-session-id': init.headers.get('mcp-session-id') ?? '' };
    await (
      await fetch(url, {
        method: 'POST',
        headers: { ...session, 'mcp-protocol-version': '2025-11-25' },
        body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
      })
    ).text();
    const call = fetch(url, {
      method: 'POST',
      headers: { ...session, 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: CALL }),
    });
    const files = await seen;
    await (await call).text();
    console.log(`streamable-http legacy tools/call: ${files.length} files\n  ${files.join('\n  ')}`);
    expect(files.some((file) => file.includes('transport-streamable-http/src/'))).toBe(true);
    expect(files.length).toBeLessThanOrEqual(12);
  });
});
