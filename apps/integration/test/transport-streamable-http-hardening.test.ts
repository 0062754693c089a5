import { McpError } from '@x/protocol';
import { McpServer } from '@x/server';
import { StreamableHttpClientTransport } from '@x/transport-streamable-http';
import { afterEach, describe, expect, it } from 'vitest';
import { e2eClient, Resources } from './fixtures/e2e-helpers.js';
import { hostHttp } from './fixtures/e2e-http.js';

// Issue 24, item 9 end to end: a tool whose result JSON cannot encode (a BigInt) over Streamable HTTP.
// Before: on 2026-07-28 the HTTP request was never ended and the client waited its whole timeout; now the
// request gets exactly one answer, -32603, in both eras and both reply modes.

const resources = new Resources();
afterEach(() => resources.closeAll());

function bigIntServer(): McpServer {
  const server = new McpServer({ name: 'bigint-server', version: '1.0.0' });
  server.registerTool('big', {}, async (_args, ctx) => {
    // A progress notification first makes the modern reply an SSE stream (when the client asked for one).
    await ctx.sendProgress({ progress: 1, total: 1 });
    return {
      content: [{ type: 'text' as const, text: 'n' }],
      structuredContent: { n: 10n as unknown as number },
    };
  });
  return server;
}

describe('Streamable HTTP: a result JSON cannot encode is answered -32603 (issue 24, item 9)', () => {
  it.each([
    { era: 'legacy', json: false },
    { era: 'legacy', json: true },
    { era: 'modern', json: false },
    { era: 'modern', json: true },
  ] as const)('$era era, enableJsonResponse=$json', async ({ era, json }) => {
    const hosted = resources.track(await hostHttp(bigIntServer(), { enableJsonResponse: json }));
    const client = resources.track(e2eClient({ protocolVersion: era }));
    client.onerror = () => {};
    await client.connect(new StreamableHttpClientTransport(hosted.url));
    const started = Date.now();
    const error = await client
      .callTool({ name: 'big', arguments: {} }, { onprogress: () => {}, timeout: 30_000 })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(McpError);
    expect(error).toMatchObject({ code: -32603 });
    // Answered, not timed out.
    expect(Date.now() - started).toBeLessThan(10_000);
    // The endpoint still serves the next call.
    const again = await client.listTools();
    expect(again.tools.map((tool) => tool.name)).toEqual(['big']);
  });
});
