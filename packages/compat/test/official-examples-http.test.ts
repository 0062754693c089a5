// Proof of issue 39 over Streamable HTTP: official SDK 1.32.2 example servers run unchanged on
// @x/compat (SDK imports aliased, as in the stdio test; port 3000 moved to a free one by a preload),
// driven by the x-mcp Client and the official Client; and an official example *client* aliased to
// @x/compat against both the compat-run and the genuine official example server. Needs @x/compat built.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Client as OfficialClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as OfficialTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client } from '@x/client';
import { StreamableHttpClientTransport } from '@x/transport-streamable-http';
import { beforeAll, describe, expect, it } from 'vitest';
import { aliasedApp, OFFICIAL_EXAMPLES } from './helpers/aliased-app.js';
import { startExampleServer } from './helpers/example-process.js';

const built = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'server', 'streamableHttp.js');
beforeAll(() => {
  if (!existsSync(built))
    throw new Error('@x/compat is not built: pnpm turbo run build --filter=@x/compat...');
});

interface Driven {
  listTools(): Promise<{ tools: Array<{ name: string }> }>;
  callTool(
    name: string,
    args: Record<string, unknown>,
  ): Promise<{ content: unknown[]; isError?: boolean | undefined }>;
  getPrompt(name: string, args: Record<string, string>): Promise<{ messages: Array<{ content: unknown }> }>;
  readText(uri: string): Promise<unknown>;
  close(): Promise<void>;
}

const drivers: Array<{ name: string; connect(url: URL): Promise<Driven> }> = [
  {
    name: 'x-mcp Client',
    async connect(url) {
      const client = new Client({ name: 'x-mcp', version: '1.0.0' });
      await client.connect(new StreamableHttpClientTransport(url));
      return {
        listTools: () => client.listTools(),
        callTool: (name, args) => client.callTool({ name, arguments: args }),
        getPrompt: (name, args) => client.getPrompt({ name, arguments: args }),
        readText: async (uri) => (await client.readResource({ uri })).contents[0],
        close: () => client.close(),
      };
    },
  },
  {
    name: 'official Client 1.32.2',
    async connect(url) {
      const client = new OfficialClient({ name: 'official', version: '1.0.0' });
      await client.connect(new OfficialTransport(url));
      return {
        listTools: () => client.listTools(),
        callTool: (name, args) =>
          client.callTool({ name, arguments: args }) as ReturnType<Driven['callTool']>,
        getPrompt: (name, args) => client.getPrompt({ name, arguments: args }),
        readText: async (uri) => (await client.readResource({ uri })).contents[0],
        close: () => client.close(),
      };
    },
  },
];

describe.each(drivers)('official Streamable HTTP examples on @x/compat, driven by the $name', (driver) => {
  it('server/jsonResponseStreamableHttp.js: sessions with JSON responses (createMcpExpressApp, isInitializeRequest)', async () => {
    using app = aliasedApp();
    await using server = await startExampleServer(
      app.addOfficialExample('server/jsonResponseStreamableHttp.js'),
      app.dir,
    );
    const client = await driver.connect(server.url);
    try {
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['greet', 'multi-greet']);
      expect((await client.callTool('greet', { name: 'Ada' })).content).toEqual([
        { type: 'text', text: 'Hello, Ada!' },
      ]);
      expect((await client.callTool('greet', {})).isError).toBe(true);
      expect(server.output()).toMatch(/Session initialized with ID: \S+/);
    } finally {
      await client.close();
    }
  });

  it('server/simpleStatelessStreamableHttp.js: a fresh server and transport per request', async () => {
    using app = aliasedApp();
    await using server = await startExampleServer(
      app.addOfficialExample('server/simpleStatelessStreamableHttp.js'),
      app.dir,
    );
    const client = await driver.connect(server.url);
    try {
      const prompt = await client.getPrompt('greeting-template', { name: 'Alan' });
      expect(prompt.messages[0]?.content).toEqual({
        type: 'text',
        text: 'Please greet Alan in a friendly manner.',
      });
      expect(await client.readText('https://example.com/greetings/default')).toMatchObject({
        text: 'Hello, world!',
      });
      const result = await client.callTool('start-notification-stream', { interval: 1, count: 2 });
      expect(result.content).toEqual([
        { type: 'text', text: 'Started sending periodic notifications every 1ms' },
      ]);
    } finally {
      await client.close();
    }
  });

  it('server/honoWebStandardStreamableHttp.js: Hono with a WebStandardStreamableHTTPServerTransport per request', async () => {
    using app = aliasedApp();
    await using server = await startExampleServer(
      app.addOfficialExample('server/honoWebStandardStreamableHttp.js'),
      app.dir,
    );
    const client = await driver.connect(server.url);
    try {
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['greet']);
      expect((await client.callTool('greet', { name: 'Ada' })).content).toEqual([
        { type: 'text', text: 'Hello, Ada! (from Hono + WebStandard transport)' },
      ]);
      expect((await client.callTool('greet', {})).isError).toBe(true);
      // The example's own routes and middleware around the transport still answer.
      const health = await fetch(new URL('/health', server.url), {
        headers: { origin: 'http://example.test' },
      });
      expect(await health.json()).toEqual({ status: 'ok' });
      expect(health.headers.get('access-control-allow-origin')).toBe('*');
      expect(server.output()).toContain('Starting Hono MCP server on port 3000');
    } finally {
      await client.close();
    }
  });
});

describe('client/multipleClientsParallel.js (official example client) aliased to @x/compat', () => {
  const runAgainst = async (serverFile: string, serverCwd: string) => {
    using app = aliasedApp();
    await using server = await startExampleServer(serverFile, serverCwd);
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [app.addOfficialExample('client/multipleClientsParallel.js'), server.url.href],
      { cwd: app.dir, timeout: 60_000 },
    );
    return stdout;
  };
  const expectAllDone = (stdout: string, notifications?: number) => {
    expect(stdout).toContain('=== All clients completed successfully ===');
    for (const id of ['client1', 'client2', 'client3']) {
      expect(stdout).toContain(`[${id}] Tool call completed`);
    }
    expect(stdout.match(/Started sending periodic notifications/g)).toHaveLength(3);
    if (notifications !== undefined) {
      expect(stdout.match(/\] Notification: Periodic notification #\d+/g)).toHaveLength(notifications);
    }
  };

  it('against the stateless example server run on @x/compat', async () => {
    using serverApp = aliasedApp();
    expectAllDone(
      await runAgainst(
        serverApp.addOfficialExample('server/simpleStatelessStreamableHttp.js'),
        serverApp.dir,
      ),
    );
  });

  it('against the genuine official stateless example server (official SDK, unmodified, in place)', async () => {
    const genuine = join(OFFICIAL_EXAMPLES, 'server', 'simpleStatelessStreamableHttp.js');
    expectAllDone(await runAgainst(genuine, dirname(genuine)));
  });
});
