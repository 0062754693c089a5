import { StdioClientTransport as V1StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as V1StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport as V1Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  StreamableHTTPClientTransport as V2StreamableHTTPClientTransport,
  type Transport as V2Transport,
} from '@modelcontextprotocol/client';
import type { Transport } from '@x/protocol';
import { StdioClientTransport } from '@x/transport-stdio';
import { StreamableHttpClientTransport } from '@x/transport-streamable-http';
import { describeCell, fixture } from './fixtures/interop-cell.js';
import {
  hostOurStreamableHttp,
  hostV1StreamableHttp,
  hostV2StreamableHttp,
} from './fixtures/interop-hosts.js';
import { connectOurClient, connectV1Client, connectV2Client } from './fixtures/interop-peers.js';
import { createOurServer } from './fixtures/our-server.mjs';

// Issue 8, interop matrix: the shared `Transport` shape (DESIGN §2). An official SDK transport object drives
// OUR `Client`, and our transports drive the official `Client`s, across the whole feature list.
//
// The casts: the three `Transport` interfaces are the same shape at runtime (start/send/close, onmessage/
// onerror/onclose, sessionId, setProtocolVersion) but each SDK types the messages with its own zod-derived
// `JSONRPCMessage` (and v1 declares `onmessage` generic), so TypeScript cannot relate them structurally.
// Going through `unknown` states "same shape, foreign message types"; the tests are what prove the claim.

const asOurs = (transport: V1Transport | V2Transport) => transport as unknown as Transport;
const asV1 = (transport: Transport) => transport as unknown as V1Transport;
const asV2 = (transport: Transport) => transport as unknown as V2Transport;

describeCell(
  'x-mcp client on the official v1 StdioClientTransport → x-mcp server · stdio · modern 2026-07-28',
  {
    serverName: 'x-mcp',
    protocolVersion: '2026-07-28',
    setup: () =>
      connectOurClient(
        asOurs(new V1StdioClientTransport({ command: process.execPath, args: [fixture('our-server.mjs')] })),
      ),
  },
);

describeCell('x-mcp client on the official v1 StreamableHTTPClientTransport → official v1 server · legacy', {
  serverName: 'official-v1',
  protocolVersion: '2025-11-25',
  setup: async (onClose) => {
    const host = await hostV1StreamableHttp();
    onClose(() => host.close());
    return connectOurClient(asOurs(new V1StreamableHTTPClientTransport(host.url)));
  },
});

describeCell(
  'x-mcp client on the official v2 StreamableHTTPClientTransport → x-mcp server · modern 2026-07-28',
  {
    serverName: 'x-mcp',
    protocolVersion: '2026-07-28',
    setup: async (onClose) => {
      const host = await hostOurStreamableHttp(createOurServer());
      onClose(() => host.close());
      return connectOurClient(asOurs(new V2StreamableHTTPClientTransport(host.url)));
    },
  },
);

describeCell('official v1 client on the x-mcp StdioClientTransport → official v1 server · stdio · legacy', {
  serverName: 'official-v1',
  protocolVersion: '2025-11-25',
  setup: () =>
    connectV1Client(
      asV1(new StdioClientTransport({ command: process.execPath, args: [fixture('v1-server.mjs')] })),
    ),
});

describeCell('official v1 client on the x-mcp StreamableHttpClientTransport → x-mcp server · legacy', {
  serverName: 'x-mcp',
  protocolVersion: '2025-11-25',
  setup: async (onClose) => {
    const host = await hostOurStreamableHttp(createOurServer());
    onClose(() => host.close());
    return connectV1Client(asV1(new StreamableHttpClientTransport(host.url)));
  },
});

describeCell(
  'official v2 client on the x-mcp StreamableHttpClientTransport → official v2 server · modern 2026-07-28',
  {
    serverName: 'official-v2',
    protocolVersion: '2026-07-28',
    setup: async (onClose) => {
      const host = await hostV2StreamableHttp();
      onClose(() => host.close());
      return connectV2Client(asV2(new StreamableHttpClientTransport(host.url)), 'auto');
    },
  },
);
