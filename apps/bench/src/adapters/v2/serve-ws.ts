import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { PlainWsTransport, serveWs } from '../plain-ws-transport.js';
import type { ServerHandle } from '../types.js';
import { createV2Server } from './definition.js';

/** v2 ships no WebSocket transport: its `McpServer` over the thinnest possible one. */
export function serve(): Promise<ServerHandle> {
  return serveWs((socket) => {
    void createV2Server().connect(new PlainWsTransport<JSONRPCMessage>(socket));
  });
}
