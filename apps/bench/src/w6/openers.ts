import type { SdkName } from '../types.js';
import type { W6Kind } from './load-spec.js';
import { watchedFetch } from './watched-fetch.js';

/** Opens one W6 session and resolves with what keeps it open (held until the process exits). */
export type Opener = (port: number, index: number) => Promise<unknown>;

/**
 * How a load process of `sdk` opens one session of `kind`: the SDK's own client (raw: the hand-written
 * one), resolved once the session is usable and its stream, if it has one, is open.
 */
export async function openerFor(sdk: SdkName, kind: W6Kind): Promise<Opener> {
  switch (sdk) {
    case 'raw':
      return rawOpener(kind);
    case 'x-mcp':
    case 'x-mcp-modern':
      return xmcpOpener(kind);
    case 'v1':
    case 'v2':
      if (kind !== 'http-get') throw new Error(`${sdk} has no ${kind} in W6`);
      return officialOpener(sdk);
  }
}

async function rawOpener(kind: W6Kind): Promise<Opener> {
  switch (kind) {
    case 'ws': {
      const { connectRawWs } = await import('../adapters/raw/ws.js');
      return (port) => connectRawWs({ transport: 'ws', port });
    }
    case 'grpc': {
      const { connectRawGrpc } = await import('../adapters/raw/grpc.js');
      return (port) => connectRawGrpc({ transport: 'grpc', port });
    }
    case 'http-get': {
      const { openRawGetStream } = await import('./raw-streams.js');
      return (port) => openRawGetStream(port);
    }
    case 'listen': {
      const { openRawListenStream } = await import('./raw-streams.js');
      return (port, index) => openRawListenStream(port, index + 1);
    }
  }
}

async function xmcpOpener(kind: W6Kind): Promise<Opener> {
  const { Client } = await import('@x/client');
  switch (kind) {
    case 'ws':
    case 'grpc': {
      const { connectX, transportFor } = await import('../adapters/xmcp/connect.js');
      return async (port) => connectX(await transportFor({ transport: kind, port }), 'legacy');
    }
    case 'http-get': {
      const { StreamableHttpClientTransport } = await import('@x/transport-streamable-http');
      return async (port) => {
        const { fetch, streamOpened } = watchedFetch();
        const client = new Client({ name: 'bench-load', version: '1.0.0' }, { protocolVersion: 'legacy' });
        await client.connect(new StreamableHttpClientTransport(`http://127.0.0.1:${port}/mcp`, { fetch }));
        await streamOpened;
        return client;
      };
    }
    case 'listen': {
      const { StreamableHttpClientTransport } = await import('@x/transport-streamable-http');
      return async (port) => {
        const { fetch } = watchedFetch();
        const client = new Client({ name: 'bench-load', version: '1.0.0' }, { protocolVersion: 'modern' });
        await client.connect(new StreamableHttpClientTransport(`http://127.0.0.1:${port}/mcp`, { fetch }));
        const subscription = client.listen({ toolsListChanged: true });
        await subscription.acknowledged;
        return { client, subscription };
      };
    }
  }
}

async function officialOpener(sdk: 'v1' | 'v2'): Promise<Opener> {
  if (sdk === 'v1') {
    const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
    const { StreamableHTTPClientTransport } = await import(
      '@modelcontextprotocol/sdk/client/streamableHttp.js'
    );
    return async (port) => {
      const { fetch, streamOpened } = watchedFetch();
      const client = new Client({ name: 'bench-load', version: '1.0.0' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`), { fetch }),
      );
      await streamOpened;
      return client;
    };
  }
  const { Client, StreamableHTTPClientTransport } = await import('@modelcontextprotocol/client');
  return async (port) => {
    const { fetch, streamOpened } = watchedFetch();
    const client = new Client({ name: 'bench-load', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`), { fetch }),
    );
    await streamOpened;
    return client;
  };
}
