// A client program written against the official SDK 1.x API runs with '@modelcontextprotocol/sdk'
// aliased to @x/compat and talks to an x-mcp server. Needs @x/compat built (see the stdio examples test).
import { execFile } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { aliasedApp } from './helpers/aliased-app.js';

const fixtures = join(dirname(fileURLToPath(import.meta.url)), 'fixtures');

describe('an official-style client program aliased to @x/compat', () => {
  it('lists, calls (with elicitation), reads and gets from an x-mcp server over stdio', async () => {
    using app = aliasedApp();
    const program = app.addFixture('official-style-client.mjs');
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [program, join(fixtures, 'x-mcp-server.mjs')],
      {
        cwd: app.dir,
        timeout: 60_000,
      },
    );
    const out = JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}');
    expect(out.server).toEqual({ name: 'x-mcp-native', version: '3.0.0' });
    expect(out.tools).toEqual(['add', 'ask']);
    expect(out.viaRequest).toBe(2);
    expect(out.add).toMatchObject({
      content: [{ type: 'text', text: '42' }],
      structuredContent: { sum: 42 },
    });
    expect(out.ask).toEqual([{ type: 'text', text: 'accept:re: name?' }]);
    expect(out.motd).toBe('hello from x-mcp');
    expect(out.prompt).toBe('Greet Ada');
    expect(out.unknownMethod).toEqual({ isMcpError: true, code: -32601 });
    expect(out.methodLiteral).toBe('tools/list');
  });
});
