import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, killAll, runCli, serve, startCli, unusedPort } from './helpers/cli-process.js';

beforeAll(assertBuilt);
const dirs: string[] = [];
afterEach(async () => {
  await killAll();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const CRASH_ONCE = fileURLToPath(new URL('./fixtures/crash-once-server.mjs', import.meta.url));

// Issue 28: `--retry`, and failover when both a ws:// and an http:// URL of one server are given.
describe('resilience options', () => {
  it('a ws:// and an http:// URL: WebSocket when it answers, Streamable HTTP when it does not', async () => {
    const [ws, http] = await Promise.all([serve('ws'), serve('http')]);
    const both = await runCli(['info', '--json', ws.url, http.url]);
    expect(both.code).toBe(0);
    expect(JSON.parse(both.stdout)).toMatchObject({ transport: 'websocket' });
    const dead = `ws://127.0.0.1:${await unusedPort()}/mcp`;
    const fallback = await runCli(['info', '--json', http.url, dead]);
    expect(fallback.code).toBe(0);
    expect(JSON.parse(fallback.stdout)).toMatchObject({ transport: 'streamable-http' });
  });

  it('listen keeps going over HTTP when the WebSocket server dies, and says so on stderr', async () => {
    const [ws, http] = await Promise.all([serve('ws'), serve('http')]);
    const listener = startCli(['listen', '--json', ws.url, http.url]);
    await listener.waitFor('stderr', /Listening/);
    ws.server.child.kill('SIGKILL');
    await listener.waitFor('stderr', /switched from websocket to streamable-http/);
    // The listen stream was re-opened on the HTTP server: its notifications reach the listener.
    for (let attempt = 0; !/list_changed/.test(listener.stdout()); attempt++) {
      if (attempt === 50) throw new Error(`no notification after the switch:\n${listener.stderr()}`);
      await runCli(['call', 'test_trigger_tool_change', http.url]);
    }
    expect(JSON.parse(listener.stdout().split('\n')[0]!)).toMatchObject({
      method: 'notifications/tools/list_changed',
    });
    listener.child.kill('SIGINT');
    expect(await listener.exited()).toBe(0);
  });

  it('a legacy session moves on to HTTP+SSE when the http:// URL only speaks that (WebSocket → Streamable HTTP → SSE)', async () => {
    const [ws, sse] = await Promise.all([serve('ws'), serve('sse')]);
    const listener = startCli(['listen', '--json', '--legacy', ws.url, sse.url]);
    await listener.waitFor('stderr', /Listening/);
    ws.server.child.kill('SIGKILL');
    // Streamable HTTP starts but its initialize is refused (a legacy SSE server): the next target takes over.
    await listener.waitFor('stderr', /switched from websocket to sse/);
    for (let attempt = 0; !/list_changed/.test(listener.stdout()); attempt++) {
      if (attempt === 50) throw new Error(`no notification after the switch:\n${listener.stderr()}`);
      await runCli(['call', 'test_trigger_tool_change', sse.url]);
    }
    expect(JSON.parse(listener.stdout().split('\n')[0]!)).toMatchObject({
      method: 'notifications/tools/list_changed',
    });
    listener.child.kill('SIGINT');
    expect(await listener.exited()).toBe(0);
  });

  it('--retry restarts a crashed stdio server and repeats the read-only call; without it the call fails', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'x-mcp-cli-retry-'));
    dirs.push(dir);
    const server = ['--', process.execPath, CRASH_ONCE];
    const without = await runCli(['call', 'flaky', '-e', `MARKER=${join(dir, 'a')}`, ...server]);
    expect(without.code).not.toBe(0);
    expect(without.stderr).toMatch(/exited with code 3/);
    const retried = await runCli([
      'call',
      'flaky',
      '--retry',
      '2',
      '-e',
      `MARKER=${join(dir, 'b')}`,
      ...server,
    ]);
    expect(retried).toMatchObject({ code: 0 });
    // The server's own last words (inherited stderr), then the CLI's note.
    expect(retried.stderr).toMatch(/crash-once: crashing\n.*the server crashed and was restarted \(1\/2\)/s);
    expect(retried.stdout).toMatch(/^answered by \d+\n$/);
  });

  it('--retry takes a count', async () => {
    const run = await runCli(['ping', '--retry', 'many', 'http://127.0.0.1:9/mcp']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--retry expects a number of retries from 0 to 100, got 'many'/);
  });
});
