// Proof of issue 39 for what a 1.x server sends outside any request, on the session's GET stream: the
// official SDK 1.32.2 example servers `server/ssePollingExample.js` (`sendLoggingMessage(…, sessionId)`
// during a call whose POST stream it closes with `extra.closeSSEStream()`, SEP-1699: the client resumes
// it from the shared event store) and `server/standaloneSseWithGetStreamableHttp.js` (a resource
// registered every 5 s, announced by `notifications/resources/list_changed`) run unchanged on
// @x/compat (SDK imports aliased, ports moved to free ones), driven by the x-mcp Client and the
// official Client. Needs @x/compat built.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client as OfficialClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as OfficialTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  LoggingMessageNotificationSchema,
  ResourceListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { Client } from '@x/client';
import { StreamableHttpClientTransport } from '@x/transport-streamable-http';
import { beforeAll, describe, expect, it } from 'vitest';
import { aliasedApp } from './helpers/aliased-app.js';
import { startExampleServer } from './helpers/example-process.js';

const built = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'server', 'streamableHttp.js');
beforeAll(() => {
  if (!existsSync(built))
    throw new Error('@x/compat is not built: pnpm turbo run build --filter=@x/compat...');
});

interface Driven {
  readonly logs: unknown[];
  /** Resolves at the next `notifications/resources/list_changed`. */
  nextResourceListChange(): Promise<void>;
  callTool(name: string): Promise<{ content: unknown[] }>;
  listResourceUris(): Promise<string[]>;
  readText(uri: string): Promise<unknown>;
  close(): Promise<void>;
}

function changes() {
  let waiting: Array<() => void> = [];
  return {
    next: () => new Promise<void>((resolve) => waiting.push(resolve)),
    fire: () => {
      for (const resolve of waiting) resolve();
      waiting = [];
    },
  };
}

const drivers: Array<{ name: string; connect(url: URL): Promise<Driven> }> = [
  {
    name: 'x-mcp Client',
    async connect(url) {
      const client = new Client({ name: 'x-mcp', version: '1.0.0' });
      const logs: unknown[] = [];
      const listChanges = changes();
      client.on('log', ({ data }) => logs.push(data));
      client.on('resourcesListChanged', listChanges.fire);
      await client.connect(new StreamableHttpClientTransport(url));
      return {
        logs,
        nextResourceListChange: listChanges.next,
        callTool: (name) => client.callTool({ name, arguments: {} }),
        listResourceUris: async () => (await client.listResources()).resources.map((r) => r.uri),
        readText: async (uri) => (await client.readResource({ uri })).contents[0],
        close: () => client.close(),
      };
    },
  },
  {
    name: 'official Client 1.32.2',
    async connect(url) {
      const client = new OfficialClient({ name: 'official', version: '1.0.0' });
      const logs: unknown[] = [];
      const listChanges = changes();
      client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logs.push(n.params.data));
      client.setNotificationHandler(ResourceListChangedNotificationSchema, listChanges.fire);
      await client.connect(new OfficialTransport(url));
      return {
        logs,
        nextResourceListChange: listChanges.next,
        callTool: async (name) => (await client.callTool({ name, arguments: {} })) as { content: unknown[] },
        listResourceUris: async () => (await client.listResources()).resources.map((r) => r.uri),
        readText: async (uri) => (await client.readResource({ uri })).contents[0],
        close: () => client.close(),
      };
    },
  },
];

describe.each(drivers)('official examples with a GET stream on @x/compat, driven by the $name', (driver) => {
  it('server/ssePollingExample.js: the call survives its closed SSE stream; every log arrives', async () => {
    using app = aliasedApp();
    await using server = await startExampleServer(
      app.addOfficialExample('server/ssePollingExample.js'),
      app.dir,
      {
        port: 3001,
      },
    );
    const client = await driver.connect(server.url);
    try {
      expect((await client.callTool('long-task')).content).toEqual([
        { type: 'text', text: 'Long task completed successfully!' },
      ]);
      expect(server.output()).toContain('Closing SSE stream to trigger client polling...');
      // The logs go out on the GET stream (`sendLoggingMessage` names no request); the first one may
      // precede the client's GET on a slow machine and is then not delivered.
      const later = [
        'Progress: 50% - Halfway there...',
        'Progress: 75% - Almost done (sent while client disconnected)...',
        'Progress: 100% - Complete!',
      ];
      await expect.poll(() => client.logs.slice(-3), { timeout: 10_000 }).toEqual(later);
      expect(client.logs.slice(0, -3)).toEqual(
        client.logs.length === 4 ? ['Progress: 25% - Starting work...'] : [],
      );
    } finally {
      await client.close();
    }
  }, 60_000);

  it('server/standaloneSseWithGetStreamableHttp.js: a resource added later is announced and readable', async () => {
    using app = aliasedApp();
    await using server = await startExampleServer(
      app.addOfficialExample('server/standaloneSseWithGetStreamableHttp.js'),
      app.dir,
    );
    const client = await driver.connect(server.url);
    try {
      const first = 'https://mcp-example.com/dynamic/example-resource';
      // More than one only if the machine took over 5 s from the start to here.
      expect(await client.listResourceUris()).toContain(first);
      expect(await client.readText(first)).toMatchObject({ text: 'Initial content for example-resource' });
      await client.nextResourceListChange(); // the example adds one every 5 s
      const uris = await client.listResourceUris();
      expect(uris.length).toBeGreaterThanOrEqual(2);
      const added = uris.find((uri) => uri !== first) ?? '';
      const name = decodeURIComponent(added.slice('https://mcp-example.com/dynamic/'.length));
      expect(await client.readText(added)).toMatchObject({ text: `Content for ${name}` });
    } finally {
      await client.close();
    }
  }, 60_000);
});
