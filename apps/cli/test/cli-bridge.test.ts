import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Client } from '@x/client';
import { GrpcClientTransport } from '@x/transport-grpc';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, BIN, killAll, runCli, startCli } from './helpers/cli-process.js';

beforeAll(assertBuilt);
afterEach(killAll);

/** The official everything-server's entry (`mcp-server-everything`), a devDependency of the CLI. */
const OFFICIAL = join(
  dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/package.json')),
  'dist',
  'index.js',
);
const UPSTREAM = ['--', process.execPath, OFFICIAL, 'stdio'];

/** `x-mcp bridge --serve <front> --port 0 -- …`; resolves with the URL on its first stdout line. */
async function bridge(front: 'http' | 'sse' | 'ws' | 'grpc', upstream: readonly string[]): Promise<string> {
  const running = startCli(['bridge', '--serve', front, '--port', '0', ...upstream]);
  const stdout = await running.waitFor('stdout', /\n/);
  return stdout.split('\n')[0] ?? '';
}

describe('x-mcp bridge', { timeout: 60_000 }, () => {
  it('--serve http: a stdio server on Streamable HTTP (the official everything-server)', async () => {
    const url = await bridge('http', UPSTREAM);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const tools = await runCli(['tools', '--json', '--legacy', url]);
    expect(tools.code).toBe(0);
    const { tools: list } = JSON.parse(tools.stdout) as { tools: Array<{ name: string }> };
    expect(list.map((t) => t.name)).toContain('echo');
    const call = await runCli(['call', 'echo', 'message=over the bridge', url]);
    expect(call.code).toBe(0);
    expect(call.stdout).toContain('over the bridge');
  });

  it('--serve ws -- <url>: network to network (a WebSocket front for a Streamable HTTP server)', async () => {
    const http = await bridge('http', UPSTREAM);
    const ws = await bridge('ws', ['--', http]);
    expect(ws).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const call = await runCli(['call', 'get-sum', 'a=20', 'b=22', ws]);
    expect(call.code).toBe(0);
    expect(call.stdout).toContain('42');
  });

  it('--serve sse: a stdio server on legacy HTTP+SSE (2024-11-05 clients)', async () => {
    const url = await bridge('sse', UPSTREAM);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/sse$/);
    const info = await runCli(['info', '--json', url]);
    expect(info.code).toBe(0);
    expect(JSON.parse(info.stdout)).toMatchObject({ transport: 'sse', era: 'legacy' });
    const call = await runCli(['call', 'echo', 'message=over sse', url]);
    expect(call.stdout).toContain('over sse');
  });

  it('--serve grpc: the official everything-server on the gRPC tunnel, driven by the x-mcp client', async () => {
    const url = await bridge('grpc', UPSTREAM);
    expect(url).toMatch(/^grpc:\/\/127\.0\.0\.1:\d+$/);
    const client = new Client({ name: 'grpc-test', version: '1.0.0' });
    await client.connect(new GrpcClientTransport(url));
    try {
      expect(client.serverInfo?.name).toMatch(/everything/i);
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toContain('get-sum');
      const sum = await client.callTool({ name: 'get-sum', arguments: { a: 19, b: 23 } });
      expect(JSON.stringify(sum.content)).toContain('42');
      const { resources } = await client.listResources();
      const first = resources[0];
      expect(first).toBeDefined();
      const read = await client.readResource({ uri: first?.uri ?? '' });
      expect(read.contents[0]?.uri).toBe(first?.uri);
    } finally {
      await client.close();
    }
  });

  it('--shared: 2026-07-28 clients share one upstream; a legacy client is refused naming --shared', async () => {
    const url = await bridge('http', ['--shared', ...UPSTREAM]);
    const calls = await Promise.all(
      ['one', 'two'].map((word) =>
        runCli(['call', 'echo', `message=shared ${word}`, '--protocol-version', '2026-07-28', url]),
      ),
    );
    expect(calls.map((call) => call.code)).toEqual([0, 0]);
    expect(calls[0]?.stdout).toContain('shared one');
    expect(calls[1]?.stdout).toContain('shared two');
    const legacy = await runCli(['tools', '--legacy', url]);
    expect(legacy.code).not.toBe(0);
    expect(legacy.stderr).toMatch(/shared by every client/);
    const sse = await runCli(['bridge', '--serve', 'sse', '--shared', ...UPSTREAM]);
    expect(sse.code).toBe(2);
    expect(sse.stderr).toMatch(/--shared serves only 2026-07-28 \(stateless\) clients/);
  });

  it('--serve stdio: a stdio host reaches the server through the bridge', async () => {
    const call = await runCli([
      'call',
      'echo',
      'message=stdio in, stdio out',
      '--',
      process.execPath,
      BIN,
      'bridge',
      '--serve',
      'stdio',
      ...UPSTREAM,
    ]);
    expect(call.code).toBe(0);
    expect(call.stdout).toContain('stdio in, stdio out');
  });

  it('help bridge lists its own options', async () => {
    const help = await runCli(['help', 'bridge']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: x-mcp bridge \[--serve http\|sse\|ws\|grpc\|stdio\]/);
    expect(help.stdout).toMatch(/--serve <name> +what the bridge serves over/);
    expect(help.stdout).toMatch(/--port <n>/);
    expect(help.stdout).not.toMatch(/--transport/);
  });

  it('refuses an unknown front, a missing upstream and --port on stdio', async () => {
    const tcp = await runCli(['bridge', '--serve', 'tcp', ...UPSTREAM]);
    expect(tcp.code).toBe(2);
    expect(tcp.stderr).toMatch(/unknown --serve tcp; bridge serves http, sse, ws, grpc or stdio/);
    const none = await runCli(['bridge', '--serve', 'http']);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/give the upstream after --/);
    const port = await runCli(['bridge', '--serve', 'stdio', '--port', '1', ...UPSTREAM]);
    expect(port.code).toBe(2);
    expect(port.stderr).toMatch(/--port and --host apply to http, sse, ws and grpc/);
  });
});
