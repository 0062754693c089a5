// Proof of issue 39 for form elicitation over Streamable HTTP: the official SDK 1.32.2 example server
// `server/elicitationFormExample.js` (sessions, `mcpServer.server.elicitInput(…)` with no related
// request, so 1.x sends it on the session's GET stream; a two-step form) runs unchanged on @x/compat
// (SDK imports aliased, port 3000 moved to a free one), driven by the x-mcp Client and the official
// Client, each answering the forms. Needs @x/compat built.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client as OfficialClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as OfficialTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
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

type Answer = (message: string) => {
  action: 'accept' | 'decline' | 'cancel';
  content?: Record<string, string | number | boolean | string[]>;
};
interface Driven {
  call(name: string): Promise<{ content: unknown[] }>;
  close(): Promise<void>;
}

const drivers: Array<{ name: string; connect(url: URL, answer: Answer): Promise<Driven> }> = [
  {
    name: 'x-mcp Client',
    async connect(url, answer) {
      const client = new Client({ name: 'x-mcp', version: '1.0.0' });
      client.setElicitationHandler((params) => answer(params.message));
      await client.connect(new StreamableHttpClientTransport(url));
      return {
        call: (name) => client.callTool({ name, arguments: {} }),
        close: () => client.close(),
      };
    },
  },
  {
    name: 'official Client 1.32.2',
    async connect(url, answer) {
      const client = new OfficialClient(
        { name: 'official', version: '1.0.0' },
        { capabilities: { elicitation: { form: {} } } },
      );
      client.setRequestHandler(ElicitRequestSchema, (request) => answer(request.params.message));
      await client.connect(new OfficialTransport(url));
      return {
        call: async (name) => (await client.callTool({ name, arguments: {} })) as { content: unknown[] },
        close: () => client.close(),
      };
    },
  },
];

describe.each(drivers)('server/elicitationFormExample.js on @x/compat, driven by the $name', (driver) => {
  it('one form accepted, one declined, a two-step form answered in order', async () => {
    using app = aliasedApp();
    await using server = await startExampleServer(
      app.addOfficialExample('server/elicitationFormExample.js'),
      app.dir,
    );
    const asked: string[] = [];
    let decline = false;
    const client = await driver.connect(server.url, (message) => {
      asked.push(message);
      if (decline) return { action: 'decline' };
      if (message.startsWith('Please provide your registration'))
        return {
          action: 'accept',
          content: { username: 'ada', email: 'ada@example.com', password: 'secret-pass', newsletter: true },
        };
      if (message.startsWith('Step 1')) return { action: 'accept', content: { title: 'Launch' } };
      return { action: 'accept', content: { date: '2026-12-08', startTime: '09:00', duration: 30 } };
    });
    try {
      expect((await client.call('register_user')).content).toEqual([
        {
          type: 'text',
          text: 'Registration successful!\n\nUsername: ada\nEmail: ada@example.com\nNewsletter: Yes',
        },
      ]);
      const event = (await client.call('create_event')).content[0] as { text: string };
      expect(event.text.startsWith('Event created successfully!\n\n')).toBe(true);
      expect(JSON.parse(event.text.slice('Event created successfully!\n\n'.length))).toEqual({
        title: 'Launch',
        date: '2026-12-08',
        startTime: '09:00',
        duration: 30,
      });
      decline = true;
      expect((await client.call('register_user')).content).toEqual([
        { type: 'text', text: 'Registration cancelled by user.' },
      ]);
      expect(asked).toEqual([
        'Please provide your registration information:',
        'Step 1: Enter basic event information',
        'Step 2: Enter date and time',
        'Please provide your registration information:',
      ]);
    } finally {
      await client.close();
    }
  }, 60_000);
});
