import { ConnectionClosedError, ErrorCode } from '@x/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { ServerExitError } from '../src/index.js';
import { StderrTail } from '../src/stderr-tail.js';
import { cleanup, fixture, nodeFixture, RpcPeer } from './helpers.js';

afterEach(cleanup);

// Issue #24 item 14: "a stdio server's exit gives 'Connection closed' without the exit code, signal or
// last stderr lines". Each error a user sees names the peer, what happened and the exit code.
describe('StdioClientTransport when the server exits on its own', () => {
  it.each([
    { how: 'exits with code 3', args: ['--code', '3'], says: 'exited with code 3', code: 3, signal: null },
    {
      how: 'is killed by SIGKILL',
      args: ['--signal', 'SIGKILL'],
      says: 'was killed by SIGKILL',
      code: null,
      signal: 'SIGKILL',
    },
  ])(
    '$how: pending requests, send() and onerror name the command, the exit and the last stderr lines',
    async ({ args, says, code, signal }) => {
      const transport = nodeFixture('dying.mjs', args, { stderr: 'pipe' });
      transport.stderr?.resume();
      const peer = new RpcPeer(transport);
      await transport.start();
      const pending = peer.request('anything');
      await peer.closed;
      const exit = transport.closeReason;
      expect(exit).toBeInstanceOf(ServerExitError);
      expect(exit).toBeInstanceOf(ConnectionClosedError);
      expect(exit?.code).toBe(ErrorCode.ConnectionClosed);
      expect(exit?.message).toContain(`MCP server "${process.execPath} ${fixture('dying.mjs')}`);
      expect(exit?.message).toContain(says);
      expect(exit?.message).toContain('dying: fatal: the database is gone');
      expect(exit?.exitCode).toBe(code);
      expect(exit?.signal).toBe(signal);
      expect(exit?.stderrTail).toEqual([
        'dying: line 1',
        'dying: line 2',
        'dying: line 3',
        'dying: fatal: the database is gone',
      ]);
      expect(peer.errors).toContain(exit);
      await expect(pending).rejects.toThrow('closed'); // RpcPeer's own rejection on onclose
      await expect(transport.send({ jsonrpc: '2.0', method: 'late' })).rejects.toBe(exit);
    },
  );

  it('a clean exit (code 0) is no fault: closeReason says how it ended, onerror stays quiet', async () => {
    const transport = nodeFixture('dying.mjs', ['--code', '0'], { stderr: 'pipe' });
    transport.stderr?.resume();
    const peer = new RpcPeer(transport);
    await transport.start();
    void peer.request('anything').catch(() => undefined);
    await peer.closed;
    expect(transport.closeReason?.message).toContain('exited with code 0');
    expect(peer.errors).toEqual([]);
  });

  it('keeps the tail with the default stderr ("inherit", relayed through this process)', async () => {
    const transport = nodeFixture('dying.mjs', ['--code', '3', '--lines', '0'], { stderr: 'inherit' });
    const peer = new RpcPeer(transport);
    await transport.start();
    void peer.request('anything').catch(() => undefined);
    await peer.closed;
    expect(transport.closeReason?.stderrTail).toEqual(['dying: fatal: the database is gone']);
  });

  it('bounds the tail by stderrTailLines and stderrTailBytes', async () => {
    const transport = nodeFixture('dying.mjs', ['--code', '3', '--lines', '5000'], {
      stderr: 'pipe',
      stderrTailLines: 2,
    });
    transport.stderr?.resume();
    const peer = new RpcPeer(transport);
    await transport.start();
    void peer.request('anything').catch(() => undefined);
    await peer.closed;
    expect(transport.closeReason?.stderrTail).toEqual([
      'dying: line 5000',
      'dying: fatal: the database is gone',
    ]);
  });

  it('stderrTailLines: 0 keeps nothing; a close() we asked for sets no closeReason', async () => {
    const none = nodeFixture('dying.mjs', ['--code', '3'], { stderr: 'ignore', stderrTailLines: 0 });
    const peer = new RpcPeer(none);
    await none.start();
    void peer.request('anything').catch(() => undefined);
    await peer.closed;
    expect(none.closeReason?.stderrTail).toEqual([]);
    expect(none.closeReason?.message).toMatch(/exited with code 3$/);

    const echo = nodeFixture('echo-server.mjs');
    await echo.start();
    await echo.close();
    expect(echo.closeReason).toBeUndefined();
  });
});

describe('StderrTail', () => {
  it('holds at most about maxBytes and cuts a partial first line', () => {
    const tail = new StderrTail(100, 64);
    for (let i = 0; i < 1000; i++) tail.push(Buffer.from(`line number ${i}\n`));
    const lines = tail.lines();
    expect(lines.at(-1)).toBe('line number 999');
    expect(lines.join('\n').length).toBeLessThanOrEqual(64);
    expect(lines.every((line) => line.startsWith('line number '))).toBe(true);
  });
});
