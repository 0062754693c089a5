import { InMemoryEventStore, InMemoryMessageBus, InMemorySessionStore } from '@x/protocol';
import { McpServer } from '@x/server';
import { startHttpServer, waitFor } from '@x/test-kit';
import { createStreamableHttpHandler } from '@x/transport-streamable-http';
import { toNodeHandler } from '@x/transport-streamable-http/node';
import { afterEach, describe, expect, it } from 'vitest';

// Issue 28: the server heartbeat on a legacy session a process adopted from a shared `sessionStore`
// (it never saw the session's `initialize`). A server sends its pings on the GET stream: "The server MAY
// send JSON-RPC requests and notifications on the stream" (2025-11-25 Streamable HTTP, "Listening for
// Messages"); a session with no GET stream here has no way to take one, so only the holder pings.

const FAST = { intervalMs: 40, timeoutMs: 5_000, maxMisses: 2 };
const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of cleanup.splice(0).reverse()) await close();
});

const shared = {
  sessionStore: new InMemorySessionStore(),
  eventStore: new InMemoryEventStore(),
  messageBus: new InMemoryMessageBus(),
};

async function node(name: string) {
  const server = new McpServer(
    { name: 'adopted', version: '1.0.0' },
    { sessionStore: shared.sessionStore, heartbeat: FAST },
  );
  let pings = 0;
  server.use({
    outgoingRequest: (call, next) => {
      if (call.request.method === 'ping') pings++;
      return next(call);
    },
  });
  const handler = createStreamableHttpHandler({
    onsession: (transport) => server.connect(transport),
    ...shared,
    instanceId: name,
    path: '/mcp',
  });
  const http = await startHttpServer(toNodeHandler(handler));
  cleanup.push(async () => {
    await handler.close();
    await server.close();
    await http.close();
  });
  return { url: `${http.url}/mcp`, pings: () => pings };
}

const HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2025-11-25',
};

function post(url: string, body: unknown, session?: string): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: session === undefined ? HEADERS : { ...HEADERS, 'mcp-session-id': session },
    body: JSON.stringify(body),
  });
}

describe('server heartbeat on a session adopted from the sessionStore', () => {
  it('the process holding the GET stream pings; one with no stream for the session does not', async () => {
    const a = await node('a');
    const b = await node('b');
    const init = await post(a.url, {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    const session = init.headers.get('mcp-session-id') as string;
    expect(session).toBeTruthy();
    await init.text();
    expect((await post(a.url, { jsonrpc: '2.0', method: 'notifications/initialized' }, session)).status).toBe(
      202,
    );

    // b never saw the session: it adopts it from the store for the GET stream, and pings over it.
    const controller = new AbortController();
    cleanup.push(async () => controller.abort());
    const get = await fetch(b.url, {
      headers: {
        accept: 'text/event-stream',
        'mcp-protocol-version': '2025-11-25',
        'mcp-session-id': session,
      },
      signal: controller.signal,
    });
    expect(get.status).toBe(200);
    const reader = (get.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let seen = '';
    let ping: { id?: unknown } | undefined;
    while (ping === undefined) {
      const { value, done } = await reader.read();
      if (done) break;
      seen += decoder.decode(value, { stream: true });
      // Whole lines only (the last may be cut); the priming event's data is empty.
      for (const line of seen.split('\n').slice(0, -1)) {
        if (!line.startsWith('data: ') || line.length === 6) continue;
        const message = JSON.parse(line.slice(6)) as { method?: string; id?: unknown };
        if (message.method === 'ping') ping = message;
      }
    }
    expect(ping?.id).toBeDefined();
    // Answered on a POST to a (the message bus routes it to b): b pings again after intervalMs, not
    // after a miss (timeoutMs is 5 s).
    expect((await post(a.url, { jsonrpc: '2.0', id: ping?.id, result: {} }, session)).status).toBe(202);
    await waitFor(() => b.pings() >= 2, { what: 'b pinging on after the answer' });
    // a ran `initialize` and its heartbeat ticks, but holds no GET stream of the session: no ping.
    expect(a.pings()).toBe(0);
    const list = await post(a.url, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, session);
    expect(list.status).toBe(200);
    await list.text();
    controller.abort();
  });
});
