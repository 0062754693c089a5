import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StreamableHTTPClientTransport as V2StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport as V2StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { describeCell, fixture } from './fixtures/interop-cell.js';
import { hostOurSse, hostOurStreamableHttp } from './fixtures/interop-hosts.js';
import { connectV1Client, connectV2Client } from './fixtures/interop-peers.js';
import { createOurServer } from './fixtures/our-server.mjs';

// Issue 8, interop matrix, direction 2: the OFFICIAL clients against OUR server. Stdio servers are real
// child processes (fixtures/our-server.mjs on the built dist/); HTTP servers run in-process on 127.0.0.1.

const ours = { serverName: 'x-mcp' };
const stdioParams = {
  command: process.execPath,
  args: [fixture('our-server.mjs')],
  stderr: 'ignore' as const,
};

describeCell('official v1 client → x-mcp server · stdio · legacy', {
  ...ours,
  protocolVersion: '2025-11-25',
  setup: () => connectV1Client(new StdioClientTransport(stdioParams)),
});

describeCell('official v1 client → x-mcp server · streamable HTTP · legacy', {
  ...ours,
  protocolVersion: '2025-11-25',
  setup: async (onClose) => {
    const host = await hostOurStreamableHttp(createOurServer());
    onClose(() => host.close());
    return connectV1Client(new StreamableHTTPClientTransport(host.url));
  },
});

describeCell('official v1 client → x-mcp server · HTTP+SSE · legacy', {
  ...ours,
  protocolVersion: '2025-11-25',
  setup: async (onClose) => {
    const host = await hostOurSse(createOurServer());
    onClose(() => host.close());
    return connectV1Client(new SSEClientTransport(host.url));
  },
});

describeCell('official v2 client → x-mcp server · stdio · modern 2026-07-28 (auto)', {
  ...ours,
  protocolVersion: '2026-07-28',
  setup: () => connectV2Client(new V2StdioClientTransport(stdioParams), 'auto'),
});

describeCell('official v2 client → x-mcp server · stdio · legacy', {
  ...ours,
  protocolVersion: '2025-11-25',
  setup: () => connectV2Client(new V2StdioClientTransport(stdioParams), 'legacy'),
});

describeCell('official v2 client → x-mcp server · streamable HTTP · modern 2026-07-28 (auto)', {
  ...ours,
  protocolVersion: '2026-07-28',
  setup: async (onClose) => {
    const host = await hostOurStreamableHttp(createOurServer());
    onClose(() => host.close());
    return connectV2Client(new V2StreamableHTTPClientTransport(host.url), 'auto');
  },
});

describeCell('official v2 client → x-mcp server · streamable HTTP · legacy', {
  ...ours,
  protocolVersion: '2025-11-25',
  setup: async (onClose) => {
    const host = await hostOurStreamableHttp(createOurServer());
    onClose(() => host.close());
    return connectV2Client(new V2StreamableHTTPClientTransport(host.url), 'legacy');
  },
});
