import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';

const FIXTURE = fileURLToPath(new URL('./fixtures/node-server.mjs', import.meta.url));
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill();
});

/** Starts the fixture; resolves with its port and a reader of its next stdout line. */
async function startFixture(mode: 'json' | 'sse') {
  const child = spawn(process.execPath, [FIXTURE, mode], { stdio: ['pipe', 'pipe', 'inherit'] });
  children.push(child);
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const next = async (): Promise<Record<string, unknown>> => JSON.parse((await lines.next()).value as string);
  const { port } = (await next()) as { port: number };
  return { child, next, url: `http://127.0.0.1:${port}/mcp` };
}

const ACCEPT = 'application/json, text/event-stream';

describe('the node:http entry', () => {
  // Loading Node's fetch implementation (the first `Response`, `Headers` or `Request`) costs a server
  // about 7 MiB of RSS and 2 MiB of heap; the node entry has no need for it.
  it.each(['json', 'sse'] as const)(
    'serves a whole session and its errors without loading fetch or Web streams (%s replies)',
    async (mode) => {
      const { child, next, url } = await startFixture(mode);
      const post = (body: string, headers: Record<string, string> = {}) =>
        request(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: ACCEPT, ...headers },
          body,
        });
      const init = await post(
        JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: {
            protocolVersion: '2025-11-25',
            capabilities: {},
            clientInfo: { name: 't', version: '1' },
          },
        }),
      );
      expect(init.statusCode).toBe(200);
      expect(await init.body.text()).toContain('"protocolVersion":"2025-11-25"');
      const session = {
        'mcp-session-id': String(init.headers['mcp-session-id']),
        'mcp-protocol-version': '2025-11-25',
      };
      const notified = await post(
        JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
        session,
      );
      expect(notified.statusCode).toBe(202);
      await notified.body.dump();
      const listed = await post(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }), session);
      expect(listed.statusCode).toBe(200);
      expect(await listed.body.text()).toContain('"id":2');

      const controller = new AbortController();
      const stream = await request(url, {
        method: 'GET',
        headers: { accept: 'text/event-stream', ...session },
        signal: controller.signal,
      });
      expect(stream.statusCode).toBe(200);
      expect(stream.headers['content-type']).toBe('text/event-stream');
      controller.abort();
      await stream.body.dump().catch(() => undefined);

      const statuses = [
        (await post('{not json', session)).statusCode,
        (
          await post(JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'ping' }), {
            ...session,
            'mcp-session-id': 'nope',
          })
        ).statusCode,
        (
          await post(JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'ping' }), {
            ...session,
            accept: 'text/plain',
          })
        ).statusCode,
        (await request(url, { method: 'PUT', body: '{}' })).statusCode,
        (await request(url, { method: 'DELETE', headers: session })).statusCode,
      ];
      expect(statuses).toEqual([400, 404, 406, 405, 200]);

      child.stdin!.write('report\n');
      expect(await next()).toEqual({ fetch: false, webStreams: false });
    },
  );
});
