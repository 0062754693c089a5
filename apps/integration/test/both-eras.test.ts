import { Client, type ClientOptions } from '@x/client';
import { ErrorCode, InMemoryTransport, type JSONRPCMessage, McpError, type Transport } from '@x/protocol';
import { McpServer, type ServerOptions } from '@x/server';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';

// Issue 4, "Tests": both eras side by side over the in-memory pair, x-mcp client against x-mcp server.

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()));
});

/** Records every message each side sends; optionally rewrites client → server messages. */
function recordingPair(rewrite?: (message: JSONRPCMessage) => JSONRPCMessage) {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const sent: JSONRPCMessage[] = [];
  const send = clientSide.send.bind(clientSide);
  clientSide.send = (message, options) => {
    const out = rewrite ? rewrite(message) : message;
    sent.push(out);
    return send(out, options);
  };
  return { clientSide: clientSide as Transport, serverSide: serverSide as Transport, sent };
}

function bookingServer(options: ServerOptions = {}): McpServer {
  const server = new McpServer({ name: 'booking', version: '1.0.0' }, options);
  server.registerTool(
    'book',
    { description: 'Books a table after asking for a name', inputSchema: z.object({ seats: z.number() }) },
    async ({ seats }, ctx) => {
      const answer = await ctx.elicit({
        mode: 'form',
        message: 'Name for the booking?',
        requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
      });
      if (answer.action !== 'accept') return { content: [{ type: 'text', text: 'cancelled' }] };
      return { content: [{ type: 'text', text: `booked ${seats} for ${String(answer.content?.['name'])}` }] };
    },
  );
  return server;
}

async function connect(
  server: McpServer,
  options: ClientOptions,
  rewrite?: (message: JSONRPCMessage) => JSONRPCMessage,
): Promise<{ client: Client; sent: JSONRPCMessage[] }> {
  const { clientSide, serverSide, sent } = recordingPair(rewrite);
  await server.connect(serverSide);
  const client = new Client({ name: 'it', version: '1.0.0' }, options);
  client.setElicitationHandler(async () => ({ action: 'accept', content: { name: 'Ada' } }));
  await client.connect(clientSide);
  open.push(client);
  return { client, sent };
}

const methods = (sent: JSONRPCMessage[]) => sent.flatMap((m) => ('method' in m ? [m.method] : []));

describe('one server definition, both eras', () => {
  it('runs the same elicitation step for a legacy client and a modern client', async () => {
    const server = bookingServer();
    const legacy = await connect(server, { protocolVersion: 'legacy' });
    const modern = await connect(server, { protocolVersion: 'auto' });

    expect(legacy.client.era).toBe('legacy');
    expect(modern.client.era).toBe('modern');
    const fromLegacy = await legacy.client.callTool({ name: 'book', arguments: { seats: 2 } });
    const fromModern = await modern.client.callTool({ name: 'book', arguments: { seats: 2 } });
    expect(fromLegacy.content).toEqual([{ type: 'text', text: 'booked 2 for Ada' }]);
    expect(fromModern.content).toEqual(fromLegacy.content);

    // Legacy: the answer went back as a response to the server's elicitation/create request.
    expect(methods(legacy.sent)).toEqual(['initialize', 'notifications/initialized', 'tools/call']);
    expect(legacy.sent.some((m) => 'result' in m && 'action' in m.result)).toBe(true);
    // Modern: no handshake; tools/call was retried with inputResponses and the server's requestState.
    const calls = modern.sent.filter((m) => 'method' in m && m.method === 'tools/call');
    expect(methods(modern.sent)).toEqual(['server/discover', 'tools/call', 'tools/call']);
    const retry = calls[1] as { id: unknown; params: Record<string, unknown> };
    expect(retry.id).not.toEqual((calls[0] as { id: unknown }).id);
    expect(retry.params['inputResponses']).toBeDefined();
    expect(typeof retry.params['requestState']).toBe('string');
    expect(
      (retry.params['_meta'] as Record<string, unknown>)['io.modelcontextprotocol/protocolVersion'],
    ).toBe('2026-07-28');
  });

  it('refuses a tampered requestState with -32602', async () => {
    const server = bookingServer();
    const tamper = (message: JSONRPCMessage): JSONRPCMessage => {
      if (!('method' in message) || message.method !== 'tools/call') return message;
      const state = message.params?.['requestState'];
      if (typeof state !== 'string') return message;
      const flipped = state.slice(0, -2) + (state.endsWith('AA') ? 'BB' : 'AA');
      return { ...message, params: { ...message.params, requestState: flipped } };
    };
    const { client } = await connect(server, { protocolVersion: 'modern' }, tamper);
    const error = await client.callTool({ name: 'book', arguments: { seats: 1 } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(ErrorCode.InvalidParams);
  });

  it('falls back to initialize when a modern client meets a legacy-only server', async () => {
    const server = bookingServer({ eras: 'legacy' });
    const { client, sent } = await connect(server, { protocolVersion: 'auto' });
    expect(client.era).toBe('legacy');
    expect(client.protocolVersion).toBe('2025-11-25');
    expect(methods(sent).slice(0, 3)).toEqual(['server/discover', 'initialize', 'notifications/initialized']);
    const result = await client.callTool({ name: 'book', arguments: { seats: 3 } });
    expect(result.content).toEqual([{ type: 'text', text: 'booked 3 for Ada' }]);
  });

  it('serves a legacy client of every initialize-era revision as legacy on a dual-era server', async () => {
    const server = bookingServer();
    for (const version of ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'] as const) {
      const { client, sent } = await connect(server, { protocolVersion: version });
      expect(client.era).toBe('legacy');
      expect(client.protocolVersion).toBe(version);
      expect(methods(sent)[0]).toBe('initialize');
      // No modern envelope on a legacy session's requests.
      const tools = await client.listTools();
      expect(tools.tools.map((t) => t.name)).toEqual(['book']);
      const listRequest = sent.find((m) => 'method' in m && m.method === 'tools/list') as {
        id: number;
        params?: Record<string, unknown>;
      };
      // Only the progress token (asked by default, the request id), none of the modern envelope's keys.
      expect(listRequest.params?.['_meta']).toEqual({ progressToken: listRequest.id });
    }
  });
});
