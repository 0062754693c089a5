import { PassThrough } from 'node:stream';
import { ConnectionClosedError, ErrorCode, type JSONRPCMessage, type McpError } from '@x/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { StdioServerTransport } from '../src/index.js';
import { cleanup, collectJsonLines, exitOf, rawSpawn, track } from './helpers.js';
import { waitFor } from '@x/test-kit';

afterEach(cleanup);

/** A server transport on in-memory pipes: `input` is what the client writes, `output` what it reads. */
async function startOnPipes(options: { maxLineBytes?: number; maxMessageBytes?: number } = {}) {
  const input = new PassThrough();
  const output = new PassThrough();
  const transport = track(new StdioServerTransport({ stdin: input, stdout: output, ...options }));
  const messages: JSONRPCMessage[] = [];
  const errors: Error[] = [];
  const replies: unknown[] = [];
  let closed = false;
  transport.onmessage = (message) => messages.push(message);
  transport.onerror = (error) => errors.push(error);
  transport.onclose = () => {
    closed = true;
  };
  output.on('data', (chunk: Buffer) => {
    for (const line of chunk.toString().split('\n')) if (line !== '') replies.push(JSON.parse(line));
  });
  await transport.start();
  return { transport, input, output, messages, errors, replies, isClosed: () => closed };
}

describe('StdioServerTransport', () => {
  it('decodes partial lines and several messages per chunk', async () => {
    const { input, messages } = await startOnPipes();
    input.write('{"jsonrpc":"2.0","method":"a"}\n{"jsonrpc":"2.0",');
    input.write('"method":"b"}\r\n\n{"jsonrpc":"2.0","id":1,"method":"c"}\n');
    await waitFor(() => messages.length === 3);
    expect(messages.map((message) => ('method' in message ? message.method : ''))).toEqual(['a', 'b', 'c']);
  });

  it('answers a malformed line with a -32700 parse error (id null) and keeps reading', async () => {
    const { input, messages, errors, replies } = await startOnPipes();
    input.write('{not json\n{"jsonrpc":"2.0","id":2,"method":"ok"}\n');
    await waitFor(() => replies.length === 1 && messages.length === 1);
    expect(replies[0]).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: ErrorCode.ParseError } });
    expect((errors[0] as McpError).code).toBe(ErrorCode.ParseError);
  });

  it('answers JSON that is not a request with -32600, echoing the id when readable', async () => {
    const { input, replies, errors } = await startOnPipes();
    input.write('{"jsonrpc":"2.0","id":7,"method":5}\n[1,2]\n');
    await waitFor(() => replies.length === 2);
    expect(replies[0]).toMatchObject({ id: 7, error: { code: ErrorCode.InvalidRequest } });
    expect(replies[1]).toMatchObject({ id: null, error: { code: ErrorCode.InvalidRequest } });
    expect(errors).toHaveLength(2);
  });

  it('drops an oversized line with a -32600 reply and keeps reading', async () => {
    const { input, messages, replies } = await startOnPipes({ maxLineBytes: 1024 });
    input.write(`{"jsonrpc":"2.0","method":"x","params":{"p":"${'y'.repeat(2000)}"}}\n`);
    input.write('{"jsonrpc":"2.0","method":"after"}\n');
    await waitFor(() => messages.length === 1 && replies.length === 1);
    expect(replies[0]).toMatchObject({ id: null, error: { code: ErrorCode.InvalidRequest } });
    expect(messages[0]).toMatchObject({ method: 'after' });
  });

  it('takes the line limit as maxMessageBytes, the deprecated maxLineBytes still working (the new name wins)', async () => {
    const long = `{"jsonrpc":"2.0","method":"x","params":{"p":"${'y'.repeat(2000)}"}}\n`;
    const small = await startOnPipes({ maxMessageBytes: 1024 });
    small.input.write(long);
    await waitFor(() => small.replies.length === 1);
    expect(small.replies[0]).toMatchObject({ id: null, error: { code: ErrorCode.InvalidRequest } });
    expect(small.messages).toHaveLength(0);
    const both = await startOnPipes({ maxMessageBytes: 64 * 1024, maxLineBytes: 1024 });
    both.input.write(long);
    await waitFor(() => both.messages.length === 1);
    expect(both.replies).toHaveLength(0);
  });

  it('closes on stdin EOF, flushing what was sent, and ends its output', async () => {
    const { transport, input, output, replies, isClosed } = await startOnPipes();
    await transport.send({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info' } });
    input.end();
    await waitFor(isClosed, { timeoutMs: 5000, what: 'onclose' });
    await waitFor(() => output.readableEnded || replies.length === 1);
    expect(replies).toHaveLength(1);
    await expect(transport.send({ jsonrpc: '2.0', method: 'late' })).rejects.toBeInstanceOf(
      ConnectionClosedError,
    );
  });

  it('reports a throwing onmessage handler without losing the rest of the chunk', async () => {
    const { transport, input, messages, errors } = await startOnPipes();
    transport.onmessage = (message) => {
      messages.push(message);
      if (messages.length === 1) throw new Error('handler bug');
    };
    input.write('{"jsonrpc":"2.0","method":"a"}\n{"jsonrpc":"2.0","method":"b"}\n');
    await waitFor(() => messages.length === 2);
    expect(errors.map((error) => error.message)).toEqual(['handler bug']);
  });

  it('fires onclose once however often close() is called', async () => {
    const { transport } = await startOnPipes();
    let closes = 0;
    transport.onclose = () => closes++;
    await Promise.all([transport.close(), transport.close()]);
    await transport.close();
    expect(closes).toBe(1);
  });
});

describe('StdioServerTransport in a real process', () => {
  it('exits when its stdin reaches EOF', async () => {
    const child = rawSpawn('echo-server.mjs');
    const lines = collectJsonLines(child);
    child.stdin?.write('{"jsonrpc":"2.0","id":1,"method":"pid"}\n');
    await waitFor(() => lines.length === 1);
    child.stdin?.end();
    expect(await exitOf(child)).toEqual({ code: 0, signal: null });
  });

  it('exits on EOF with exitOnClose even when a timer keeps the process busy', async () => {
    const child = rawSpawn('echo-server.mjs', ['--keep-alive']);
    child.stdin?.end();
    expect(await exitOf(child)).toEqual({ code: 0, signal: null });
  });

  it('answers garbage with a parse error and keeps serving', async () => {
    const child = rawSpawn('echo-server.mjs');
    const lines = collectJsonLines(child);
    child.stdin?.write('garbage\n{"jsonrpc":"2.0","id":1,"method":"echo","params":{"a":1}}\n');
    await waitFor(() => lines.length === 2);
    expect(lines[0]).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
    expect(lines[1]).toEqual({ jsonrpc: '2.0', id: 1, result: { params: { a: 1 } } });
  });

  for (const [flag, expected] of [
    ['--busy', { code: null, signal: 'SIGTERM' }],
    ['--keep-alive', { code: 0, signal: null }],
  ] as const) {
    it(`on SIGTERM finishes writing a 5 MiB reply, then ends (${flag})`, async () => {
      // --busy: the re-raised signal ends the process; --keep-alive: exitOnClose exits with 0 first.
      const child = rawSpawn('echo-server.mjs', [flag]);
      const lines = collectJsonLines(child);
      child.stdout?.once('data', () => child.kill('SIGTERM'));
      child.stdin?.write(`{"jsonrpc":"2.0","id":2,"method":"big","params":{"size":${5 * 1024 * 1024}}}\n`);
      expect(await exitOf(child)).toEqual(expected);
      await waitFor(() => lines.length === 1, { timeoutMs: 5000, what: 'the big reply' });
      expect((lines[0] as { result: { data: string } }).result.data.length).toBe(5 * 1024 * 1024);
    });
  }
});
