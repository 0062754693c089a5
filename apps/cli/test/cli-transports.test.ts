import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, BIN, killAll, runCli, serve } from './helpers/cli-process.js';

beforeAll(assertBuilt);
afterEach(killAll);

/** A stdio server: the CLI's own `serve --transport stdio`, i.e. the built everything server. */
const STDIO_SERVER = ['--', process.execPath, BIN, 'serve', '--transport', 'stdio'];
/** The examples' own stdio entry of the same server (built with the CLI, a dependency). */
const EXAMPLES_STDIO_SERVER = fileURLToPath(new URL('../../examples/dist/stdio-server.js', import.meta.url));

describe('targets', () => {
  it('stdio: -- <command> spawns the server (info --json)', async () => {
    const info = await runCli(['info', '--json', ...STDIO_SERVER]);
    expect(info.code).toBe(0);
    expect(JSON.parse(info.stdout)).toMatchObject({ transport: 'stdio', era: 'modern' });
  });

  it('stdio: call, and read on the legacy era', async () => {
    const call = await runCli(['call', 'test_simple_text', ...STDIO_SERVER]);
    expect(call).toMatchObject({ code: 0, stdout: 'This is a simple text response for testing.\n' });
    const legacy = await runCli(['read', 'test://static-text', '--legacy', ...STDIO_SERVER]);
    expect(legacy.stdout).toBe('This is the content of the static text resource.\n');
  });

  it.skipIf(!existsSync(EXAMPLES_STDIO_SERVER))('stdio: -- node <examples stdio-server.js>', async () => {
    const run = await runCli(['tools', '--json', '--', process.execPath, EXAMPLES_STDIO_SERVER]);
    expect(run.code).toBe(0);
    const { tools } = JSON.parse(run.stdout) as { tools: Array<{ name: string }> };
    expect(tools.map((t) => t.name)).toContain('test_simple_text');
  });

  it('ws: a ws:// URL speaks WebSocket', async () => {
    const { url } = await serve('ws');
    expect(url).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const info = await runCli(['info', '--json', url]);
    expect(JSON.parse(info.stdout)).toMatchObject({ transport: 'websocket', era: 'modern' });
    const prompt = await runCli(['prompt', 'test_simple_prompt', url]);
    expect(prompt.stdout).toBe('user:\n  This is a simple prompt for testing.\n');
  });

  it('http: falls back to legacy HTTP+SSE when the URL is an SSE endpoint', async () => {
    const { url } = await serve('sse');
    expect(url).toMatch(/\/sse$/);
    const info = await runCli(['info', '--json', url]);
    expect(info.code).toBe(0);
    expect(JSON.parse(info.stdout)).toMatchObject({ transport: 'sse', era: 'legacy' });
    const call = await runCli(['call', 'test_simple_text', url]);
    expect(call.stdout).toBe('This is a simple text response for testing.\n');
  });

  it('--transport http turns the fallback off', async () => {
    const { url } = await serve('sse');
    const run = await runCli(['info', '--transport', 'http', url]);
    expect(run.code).toBe(3);
    // (cli-first-use.test.ts: the message names the legacy HTTP+SSE endpoint and what to use instead.)
    expect(run.stderr).toMatch(/x-mcp: error: .*\/sse is a legacy HTTP\+SSE endpoint/);
  });

  for (const transport of ['http', 'ws'] as const) {
    it(`-H headers reach the ${transport} server (a foreign Origin is refused by its DNS-rebinding guard)`, async () => {
      const { url } = await serve(transport);
      const plain = await runCli(['ping', '-H', 'Authorization: Bearer t0ken', '--header=X-Trace: 1', url]);
      expect(plain.code).toBe(0);
      const foreign = await runCli(['ping', '-H', 'Origin: http://evil.example', url]);
      expect(foreign.code).toBe(3);
      expect(foreign.stderr).toMatch(/HTTP 403/);
    });
  }
});
