import { SseClientTransport } from '@x/transport-sse';
import { StdioClientTransport } from '@x/transport-stdio';
import { StreamableHttpClientTransport } from '@x/transport-streamable-http';
import { expect } from 'vitest';
import { describeCell, fixture } from './fixtures/interop-cell.js';
import {
  hostV1Sse,
  hostV1StreamableHttp,
  hostV2DefaultHttp,
  hostV2StreamableHttp,
} from './fixtures/interop-hosts.js';
import { connectOurClient, type PeerClient } from './fixtures/interop-peers.js';

// Issue 8, interop matrix, direction 1: OUR client against servers built on the OFFICIAL SDK.
// Stdio servers are real child processes (plain .mjs fixtures); HTTP servers run in-process on 127.0.0.1.

const v1 = { serverName: 'official-v1' };
const v2 = { serverName: 'official-v2' };

/** Auto mode against a legacy-only server: the `server/discover` probe fails and `initialize` follows. */
const probedThenInitialized = (client: PeerClient) =>
  expect(client.sent.slice(0, 3)).toEqual(['server/discover', 'initialize', 'notifications/initialized']);
/** Auto mode against a 2026-07-28 server: the probe succeeds and nothing else precedes the first request. */
const discovered = (client: PeerClient) => expect(client.sent[0]).toBe('server/discover');
/** Legacy mode: straight to `initialize`, no probe. */
const initializedOnly = (client: PeerClient) =>
  expect(client.sent.slice(0, 2)).toEqual(['initialize', 'notifications/initialized']);

function stdio(file: string) {
  return new StdioClientTransport({ command: process.execPath, args: [fixture(file)], stderr: 'ignore' });
}

describeCell('x-mcp client → official v1 server · stdio · legacy (auto: probe, fall back)', {
  ...v1,
  protocolVersion: '2025-11-25',
  handshake: probedThenInitialized,
  setup: () => connectOurClient(stdio('v1-server.mjs')),
});

describeCell('x-mcp client → official v1 server · streamable HTTP · legacy (auto: probe, fall back)', {
  ...v1,
  protocolVersion: '2025-11-25',
  handshake: probedThenInitialized,
  setup: async (onClose) => {
    const host = await hostV1StreamableHttp();
    onClose(() => host.close());
    return connectOurClient(new StreamableHttpClientTransport(host.url));
  },
});

describeCell('x-mcp client → official v1 server · HTTP+SSE · legacy (Streamable HTTP → SSE fallback)', {
  ...v1,
  protocolVersion: '2025-11-25',
  handshake: (client) => {
    // Probe → 405 (legacy), initialize over Streamable HTTP → 405 (transport fallback), initialize over SSE.
    expect(client.transport).toBeInstanceOf(SseClientTransport);
    expect(client.sent.slice(0, 4)).toEqual([
      'server/discover',
      'initialize',
      'initialize',
      'notifications/initialized',
    ]);
  },
  setup: async (onClose) => {
    const host = await hostV1Sse();
    onClose(() => host.close());
    return connectOurClient(new StreamableHttpClientTransport(host.url), {
      connect: { fallback: () => new SseClientTransport(host.url) },
    });
  },
});

describeCell('x-mcp client → official v2 server · stdio · modern 2026-07-28', {
  ...v2,
  protocolVersion: '2026-07-28',
  handshake: discovered,
  setup: () => connectOurClient(stdio('v2-server.mjs')),
});

describeCell('x-mcp client → official v2 server · stdio · legacy', {
  ...v2,
  protocolVersion: '2025-11-25',
  handshake: initializedOnly,
  setup: () => connectOurClient(stdio('v2-server.mjs'), { protocolVersion: 'legacy' }),
});

describeCell('x-mcp client → official v2 server · streamable HTTP · modern 2026-07-28', {
  ...v2,
  protocolVersion: '2026-07-28',
  handshake: discovered,
  setup: async (onClose) => {
    const host = await hostV2StreamableHttp();
    onClose(() => host.close());
    return connectOurClient(new StreamableHttpClientTransport(host.url));
  },
});

describeCell('x-mcp client → official v2 server · streamable HTTP · legacy', {
  ...v2,
  protocolVersion: '2025-11-25',
  handshake: initializedOnly,
  setup: async (onClose) => {
    const host = await hostV2StreamableHttp();
    onClose(() => host.close());
    return connectOurClient(new StreamableHttpClientTransport(host.url), { protocolVersion: 'legacy' });
  },
});

describeCell('x-mcp client → official v2 server · streamable HTTP · legacy, stateless (v2 default serving)', {
  ...v2,
  protocolVersion: '2025-11-25',
  handshake: initializedOnly,
  setup: async (onClose) => {
    const host = await hostV2DefaultHttp();
    onClose(() => host.close());
    return connectOurClient(new StreamableHttpClientTransport(host.url), { protocolVersion: 'legacy' });
  },
  peerLimits: {
    elicitation: 'v2 answers isError "per-request legacy serving cannot receive server-to-client requests"',
    sampling: 'v2 answers isError "per-request legacy serving cannot receive server-to-client requests"',
  },
});
