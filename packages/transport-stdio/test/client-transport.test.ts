import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConnectionClosedError, ErrorCode, MessageTooLargeError, McpError } from '@x/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { ProcessSpawnError, StdioClientTransport } from '../src/index.js';
import { cleanup, nodeFixture, RpcPeer, track } from './helpers.js';
import { waitFor } from '@x/test-kit';

afterEach(cleanup);

async function startEcho(args: string[] = [], options: Parameters<typeof nodeFixture>[2] = {}) {
  const transport = nodeFixture('echo-server.mjs', args, options);
  const peer = new RpcPeer(transport);
  await transport.start();
  return { transport, peer };
}

describe('StdioClientTransport', () => {
  it('round-trips requests in both directions', async () => {
    const { peer } = await startEcho();
    expect(await peer.request('echo', { hello: 'world' })).toEqual({ params: { hello: 'world' } });
    peer.onrequest = (request) => ({ said: request.params?.['question'] });
    expect(await peer.request('ask', { question: 'ping?' })).toEqual({ answer: { said: 'ping?' } });
  });

  it('carries a 5 MiB result with the default limits', async () => {
    const { peer } = await startEcho();
    const size = 5 * 1024 * 1024;
    const result = await peer.request<{ data: string }>('big', { size });
    expect(result.data.length).toBe(size);
  });

  it('answers 1,000 concurrent requests', async () => {
    const { peer } = await startEcho();
    const results = await Promise.all(Array.from({ length: 1000 }, (_, i) => peer.request('echo', { i })));
    expect(results.map((result) => (result['params'] as { i: number }).i)).toEqual(
      Array.from({ length: 1000 }, (_, i) => i),
    );
  });

  it('delivers 10,000 queued messages in order, respecting the bound on buffered bytes', async () => {
    // A small bound forces most sends to wait for the pipe to drain.
    const { transport, peer } = await startEcho([], { maxBufferedBytes: 64 * 1024 });
    const sends: Promise<void>[] = [];
    const padding = 'p'.repeat(200);
    for (let i = 0; i < 10_000; i++) {
      sends.push(transport.send({ jsonrpc: '2.0', id: i, method: 'echo', params: { i, padding } }));
    }
    let resolved = 0;
    for (const send of sends) void send.then(() => resolved++);
    await Promise.resolve();
    // Draining needs I/O, so sends past the bound cannot have resolved within a microtask.
    expect(resolved).toBeLessThan(10_000);
    await Promise.all(sends);
    await waitFor(() => peer.received.length === 10_000, { timeoutMs: 20_000, what: '10,000 replies' });
    const order = peer.received.map((message) => ('id' in message ? message.id : undefined));
    expect(order).toEqual(Array.from({ length: 10_000 }, (_, i) => i));
  });

  it('delivers what was sent in the same turn as close() before the server sees its input end', async () => {
    const record = join(mkdtempSync(join(tmpdir(), 'x-mcp-stdio-')), 'notified.json');
    const { transport } = await startEcho(['--record', record]);
    await transport.send({ jsonrpc: '2.0', method: 'notifications/earlier' });
    void transport.send({ jsonrpc: '2.0', method: 'notifications/first' });
    void transport.send({ jsonrpc: '2.0', method: 'notifications/second' });
    void transport.send({ jsonrpc: '2.0', method: 'notifications/third' });
    await transport.close();
    expect(JSON.parse(readFileSync(record, 'utf8'))).toEqual([
      'notifications/earlier',
      'notifications/first',
      'notifications/second',
      'notifications/third',
    ]);
  });

  it('reports garbage on the server stdout through onerror and keeps going', async () => {
    const { peer } = await startEcho();
    expect(await peer.request('garbage')).toEqual({ ok: true });
    expect(peer.errors).toHaveLength(1);
    expect(peer.errors[0]).toBeInstanceOf(McpError);
    expect((peer.errors[0] as McpError).code).toBe(ErrorCode.ParseError);
    expect(await peer.request('echo', { still: 'alive' })).toEqual({ params: { still: 'alive' } });
  });

  it('drops a line over the limit with a clear error and stays usable', async () => {
    const { peer } = await startEcho([], { maxLineBytes: 64 * 1024 });
    // Watched from the start: it may reject before the oversize error is seen below.
    const tooBig = expect(peer.request('big', { size: 256 * 1024 })).rejects.toThrow(
      "The server's response exceeds maxMessageBytes (65536) and was dropped",
    );
    await waitFor(() => peer.errors.length > 0, { timeoutMs: 5000, what: 'the oversize error' });
    expect(peer.errors[0]).toBeInstanceOf(MessageTooLargeError);
    expect(peer.errors[0]?.message).toMatch(/65536-byte line limit/);
    // The dropped line was a response whose id showed: its request fails now, not at its timeout.
    await tooBig;
    expect(await peer.request('big', { size: 1000 })).toEqual({ data: 'x'.repeat(1000) });
  });

  it('refuses a message nested deeper than maxNestingDepth with -32700 naming the option, and stays usable', async () => {
    const { peer } = await startEcho([], { maxNestingDepth: 8 });
    let deep: unknown = 'leaf';
    for (let i = 0; i < 20; i++) deep = [deep];
    const refused = peer.request('echo', { deep });
    void refused.catch(() => undefined);
    await waitFor(() => peer.errors.length > 0, { timeoutMs: 5000, what: 'the nesting error' });
    expect(peer.errors[0]).toBeInstanceOf(McpError);
    expect((peer.errors[0] as McpError).code).toBe(ErrorCode.ParseError);
    expect(peer.errors[0]?.message).toMatch(/maxNestingDepth/);
    expect(await peer.request('echo', { shallow: [1] })).toEqual({ params: { shallow: [1] } });
  });

  it('fires onclose with the exit info when the server crashes mid-request', async () => {
    const { transport, peer } = await startEcho();
    const pending = peer.request('crash', { code: 7 });
    await peer.closed;
    await expect(pending).rejects.toThrow('closed');
    expect(transport.exitInfo).toEqual({ code: 7, signal: null });
    await expect(transport.send({ jsonrpc: '2.0', method: 'late' })).rejects.toBeInstanceOf(
      ConnectionClosedError,
    );
  });

  it('closes by ending stdin: a well-behaved server exits on its own with code 0', async () => {
    // A generous first step, so a loaded machine cannot turn the graceful exit into a SIGTERM.
    const { transport, peer } = await startEcho([], { stdinCloseTimeoutMs: 10_000 });
    let closes = 0;
    transport.onclose = () => closes++;
    await transport.close();
    await transport.close();
    expect(transport.exitInfo).toEqual({ code: 0, signal: null });
    expect(closes).toBe(1);
    await expect(peer.request('echo')).rejects.toBeInstanceOf(ConnectionClosedError);
  });

  it('escalates to SIGKILL for a server that ignores stdin EOF and SIGTERM', async () => {
    const transport = nodeFixture('stubborn.mjs', [], {
      stderr: 'pipe',
      stdinCloseTimeoutMs: 100,
      sigtermTimeoutMs: 200,
    });
    let log = '';
    transport.stderr?.on('data', (chunk: Buffer) => {
      log += chunk.toString();
    });
    await transport.start();
    // Its SIGTERM handler must be installed before we test that it ignores SIGTERM.
    await waitFor(() => log.includes('stubborn ready'), { timeoutMs: 5000, what: 'the stubborn server' });
    const started = Date.now();
    await transport.close();
    expect(transport.exitInfo).toEqual({ code: null, signal: 'SIGKILL' });
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('rejects start() when the command does not exist', async () => {
    const transport = track(new StdioClientTransport({ command: 'x-mcp-no-such-command-4711' }));
    const error = await transport.start().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProcessSpawnError);
    expect((error as ProcessSpawnError).code).toBe('ENOENT');
    expect((error as Error).message).toMatch(/command not found/);
    await expect(transport.send({ jsonrpc: '2.0', method: 'x' })).rejects.toBeInstanceOf(
      ConnectionClosedError,
    );
  });

  it.skipIf(process.platform === 'win32')('rejects start() when the file is not executable', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'x-mcp-stdio-'));
    const file = join(dir, 'server.sh');
    writeFileSync(file, '#!/bin/sh\n');
    chmodSync(file, 0o644);
    const transport = track(new StdioClientTransport({ command: file }));
    await expect(transport.start()).rejects.toMatchObject({ name: 'ProcessSpawnError', code: 'EACCES' });
  });

  it('close() racing start() still shuts the server down', async () => {
    const transport = nodeFixture('echo-server.mjs');
    let closes = 0;
    transport.onclose = () => closes++;
    const started = transport.start();
    await transport.close();
    await started;
    expect(transport.exitInfo).toBeDefined();
    expect(closes).toBe(1);
  });

  it('refuses a second start()', async () => {
    const { transport } = await startEcho();
    await expect(transport.start()).rejects.toThrow(/already started/);
  });

  it('passes only the safe environment unless asked for more', async () => {
    process.env['X_MCP_TEST_SECRET'] = 'hunter2';
    try {
      const { peer } = await startEcho([], { env: { EXTRA: 'yes', HOME: undefined } });
      const { env } = await peer.request<{ env: Record<string, string> }>('env');
      expect(env['X_MCP_TEST_SECRET']).toBeUndefined();
      expect(env['EXTRA']).toBe('yes');
      expect(env['HOME']).toBeUndefined();
      expect(env['PATH']).toBe(process.env['PATH']);

      const inherited = await startEcho([], { inheritEnv: true });
      const all = await inherited.peer.request<{ env: Record<string, string> }>('env');
      expect(all.env['X_MCP_TEST_SECRET']).toBe('hunter2');
    } finally {
      delete process.env['X_MCP_TEST_SECRET'];
    }
  });

  it('exposes the server stderr as a stream with stderr: "pipe"', async () => {
    const transport = nodeFixture('echo-server.mjs', ['--log'], { stderr: 'pipe' });
    let log = '';
    transport.stderr?.on('data', (chunk: Buffer) => {
      log += chunk.toString();
    });
    await transport.start();
    await waitFor(() => log.includes('echo-server ready'), { timeoutMs: 5000, what: 'the stderr log line' });
    expect(transport.pid).toBeTypeOf('number');
  });
});
