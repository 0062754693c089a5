import { setTimeout as delay } from 'node:timers/promises';
import { McpServer } from '@x/server';
import { z } from 'zod';

const text = (value: string) => ({ content: [{ type: 'text' as const, text: value }] });

/**
 * The server every fuzz and soak run talks to: `echo {text}`, `slow {ms}` (answers after `ms`, or when
 * cancelled), and `bigint` (a result JSON cannot encode: issue #24 item 9).
 */
export function createFuzzServer(): McpServer {
  const server = new McpServer({ name: 'fuzz-server', version: '1.0.0' });
  server.registerTool('echo', { inputSchema: z.object({ text: z.string() }) }, ({ text: value }) =>
    text(value),
  );
  server.registerTool(
    'slow',
    { inputSchema: z.object({ ms: z.number().int().min(0).max(60_000) }) },
    async ({ ms }, ctx) => {
      await delay(ms, undefined, { signal: ctx.signal }).catch(() => undefined);
      return text('slow');
    },
  );
  server.registerTool('bigint', {}, () => ({ ...text('big'), _meta: { n: BigInt(10) } }) as never);
  return server;
}
