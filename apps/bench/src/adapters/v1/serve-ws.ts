import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { PlainWsTransport, serveWs } from '../plain-ws-transport.js';
import type { ServerHandle } from '../types.js';
import { createV1Server } from './definition.js';

/** v1 ships no WebSocket server transport: its `McpServer` over the thinnest possible one. */
export function serve(): Promise<ServerHandle> {
  return serveWs((socket) => {
    void createV1Server().connect(new PlainWsTransport<JSONRPCMessage>(socket));
  });
}
