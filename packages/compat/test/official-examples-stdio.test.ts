// Proof of issue 39: official SDK 1.32.2 example servers, shipped in its npm package, run unchanged
// (see helpers/aliased-app.ts for the one rewrite: SDK-relative imports become package imports) with
// `@modelcontextprotocol/sdk` resolving to @x/compat, driven over stdio by the x-mcp Client and by the
// real official Client. Needs @x/compat built: `pnpm turbo run build --filter=@x/compat...`.
import { Client as OfficialClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as OfficialStdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CreateMessageRequestSchema as OfficialCreateMessageRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { Client } from '@x/client';
import { StdioClientTransport } from '@x/transport-stdio';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type AliasedApp, aliasedApp } from './helpers/aliased-app.js';

const built = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'server', 'mcp.js');

interface Driver {
  name: string;
  /** Connects a client to `node <file>`; `sampling` answers sampling/createMessage. */
  connect(file: string, sampling?: (text: string) => string): Promise<DrivenClient>;
}
interface DrivenClient {
  listTools(): Promise<{ tools: Array<{ name: string; outputSchema?: unknown }> }>;
  callTool(
    name: string,
    args: Record<string, unknown>,
    onprogress?: (progress: { progress: number; total?: number | undefined }) => void,
  ): Promise<{ content: unknown[]; structuredContent?: unknown; isError?: boolean | undefined }>;
  close(): Promise<void>;
}

const drivers: Driver[] = [
  {
    name: 'x-mcp Client',
    async connect(file, sampling) {
      const client = new Client({ name: 'x-mcp', version: '1.0.0' });
      if (sampling !== undefined) {
        client.setSamplingHandler((params) => {
          const content = params.messages[0]?.content as { text?: string };
          return {
            role: 'assistant',
            model: 'test',
            content: { type: 'text', text: sampling(content.text ?? '') },
          };
        });
      }
      await client.connect(
        new StdioClientTransport({ command: process.execPath, args: [file], stderr: 'pipe' }),
      );
      return {
        listTools: () => client.listTools(),
        callTool: (name, args, onprogress) =>
          client.callTool({ name, arguments: args }, onprogress === undefined ? {} : { onprogress }),
        close: () => client.close(),
      };
    },
  },
  {
    name: 'official Client 1.32.2',
    async connect(file, sampling) {
      const client = new OfficialClient(
        { name: 'official', version: '1.0.0' },
        { capabilities: sampling === undefined ? {} : { sampling: {} } },
      );
      if (sampling !== undefined) {
        client.setRequestHandler(OfficialCreateMessageRequestSchema, (request) => {
          const content = request.params.messages[0]?.content as { text?: string };
          return {
            role: 'assistant',
            model: 'test',
            content: { type: 'text', text: sampling(content.text ?? '') },
          };
        });
      }
      await client.connect(
        new OfficialStdioClientTransport({ command: process.execPath, args: [file], stderr: 'pipe' }),
      );
      return {
        listTools: () => client.listTools() as ReturnType<DrivenClient['listTools']>,
        callTool: (name, args, onprogress) =>
          client.callTool(
            { name, arguments: args },
            undefined,
            onprogress === undefined ? {} : { onprogress },
          ) as ReturnType<DrivenClient['callTool']>,
        close: () => client.close(),
      };
    },
  },
];

let app: AliasedApp;
let open: DrivenClient[] = [];

beforeAll(() => {
  if (!existsSync(built))
    throw new Error('@x/compat is not built: pnpm turbo run build --filter=@x/compat...');
});

afterEach(async () => {
  for (const client of open) await client.close();
  open = [];
  app?.[Symbol.dispose]();
});

describe.each(drivers)('official stdio examples on @x/compat, driven by the $name', (driver) => {
  const connect = async (example: string, sampling?: (text: string) => string) => {
    app = aliasedApp();
    const client = await driver.connect(app.addOfficialExample(example), sampling);
    open.push(client);
    return client;
  };

  it('server/mcpServerOutputSchema.js: a tool with a raw-shape output schema returns checked structured content', async () => {
    const client = await connect('server/mcpServerOutputSchema.js');
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['get_weather']);
    expect(tools[0]?.outputSchema).toMatchObject({
      type: 'object',
      required: expect.arrayContaining(['temperature']),
    });
    const result = await client.callTool('get_weather', { city: 'Paris', country: 'FR' });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({
      temperature: { celsius: expect.any(Number), fahrenheit: expect.any(Number) },
      conditions: expect.stringMatching(/^(sunny|cloudy|rainy|stormy|snowy)$/),
    });
    // The example's input schema is enforced: a missing argument is a tool error, not a crash.
    expect((await client.callTool('get_weather', { city: 'Paris' })).isError).toBe(true);
  });

  it('server/progressExample.js: extra.sendNotification progress reaches onprogress', async () => {
    const client = await connect('server/progressExample.js');
    const seen: number[] = [];
    const result = await client.callTool('count', { n: 3 }, ({ progress }) => seen.push(progress));
    expect(result.content).toEqual([{ type: 'text', text: 'Counted to 3' }]);
    expect(seen).toEqual([1, 2, 3]);
  });

  it('server/toolWithSampleServer.js: mcpServer.server.createMessage asks the client to sample', async () => {
    const client = await connect(
      'server/toolWithSampleServer.js',
      (text) => `summary of ${text.length} chars`,
    );
    const result = await client.callTool('summarize', { text: 'a long text' });
    expect(result.content).toEqual([{ type: 'text', text: expect.stringMatching(/^summary of \d+ chars$/) }]);
  });
});

describe('the aliased application folder', () => {
  it('resolves @modelcontextprotocol/sdk to @x/compat, not to the official package', async () => {
    app = aliasedApp();
    const { execFileSync } = await import('node:child_process');
    const resolved = execFileSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        "console.log(import.meta.resolve('@modelcontextprotocol/sdk/server/mcp.js'))",
      ],
      { cwd: app.dir, encoding: 'utf8' },
    );
    expect(resolved.trim()).toMatch(/\/packages\/compat\/dist\/server\/mcp\.js$/);
  });
});
