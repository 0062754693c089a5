import { ErrorCode, type McpError, TransportLostError } from '@x/protocol';
import { waitFor } from '@x/test-kit';
import { afterEach, describe, expect, it } from 'vitest';
import { ServerExitError } from '../src/index.js';
import { cleanup, isProcessGone, nodeFixture, RpcPeer } from './helpers.js';

afterEach(cleanup);

// Issue 28 §4 and 2026-07-28 basic/transports/stdio, "Unexpected Termination": "If the server process
// exits unexpectedly, the client SHOULD restart it. ... any in-flight requests are simply lost and the
// client can retry them against the fresh process."
describe('StdioClientTransport restart', () => {
  it('restarts a crashed server, answers its lost requests at once, and gives up past maxAttempts in the window', async () => {
    // dying.mjs writes stderr lines, then exits with code 3 as soon as a request arrives.
    const transport = nodeFixture('dying.mjs', ['--code', '3'], {
      stderr: 'pipe',
      restart: { initialDelayMs: 5, maxDelayMs: 50, maxAttempts: 2, windowMs: 60_000 },
    });
    transport.stderr?.resume();
    const peer = new RpcPeer(transport);
    let reconnects = 0;
    transport.onreconnect = () => {
      reconnects++;
    };
    await transport.start();
    const pids = [transport.pid];

    for (let round = 1; round <= 2; round++) {
      const lost = await peer.request('anything').catch((error: unknown) => error);
      // Answered as soon as the process died, not after a timeout, as a lost request.
      expect(lost).toBeInstanceOf(TransportLostError);
      expect((lost as TransportLostError).transport).toBe('stdio');
      expect((lost as McpError).code).toBe(ErrorCode.ConnectionClosed);
      expect((lost as McpError).data).toMatchObject({ exitCode: 3, signal: null });
      expect((lost as McpError).cause).toBeInstanceOf(ServerExitError);
      expect((lost as McpError).message).toContain('dying: fatal: the database is gone');
      await waitFor(() => reconnects === round, { what: `restart ${round}` });
      expect(transport.restarts).toBe(round);
      pids.push(transport.pid);
    }
    expect(new Set(pids).size).toBe(3);
    // Each crash went to onerror with its exit code and last stderr lines.
    const crashes = peer.errors.filter((e) => e instanceof ServerExitError);
    expect(crashes).toHaveLength(2);
    expect((crashes[0] as ServerExitError).exitCode).toBe(3);

    // The third crash within the window: no restart loop, the transport closes with the last cause.
    const last = peer.request('anything').catch((error: unknown) => error);
    await peer.closed;
    expect(await last).toBeInstanceOf(Error);
    const reason = transport.closeReason;
    expect(reason).toBeInstanceOf(ServerExitError);
    expect(reason?.message).toContain('exited with code 3 after 2 restart(s)');
    expect(reason?.message).toContain('restart.maxAttempts (2)');
    expect(reason?.message).toContain('dying: fatal: the database is gone');
    expect(reconnects).toBe(2);
    for (const pid of pids) await waitFor(() => isProcessGone(pid!), { what: `process ${pid} gone` });
  });

  it('resetConnection (a hung server, heartbeat): kills it (SIGKILL after sigtermTimeoutMs), restarts it within the same limits', async () => {
    // stubborn.mjs never answers and ignores SIGTERM: a server stuck with its pipes open.
    const transport = nodeFixture('stubborn.mjs', [], {
      stderr: 'pipe',
      sigtermTimeoutMs: 100,
      restart: { initialDelayMs: 5, maxDelayMs: 50, maxAttempts: 1, windowMs: 60_000 },
    });
    transport.stderr?.resume();
    const peer = new RpcPeer(transport);
    let reconnects = 0;
    transport.onreconnect = () => {
      reconnects++;
    };
    await transport.start();
    const hung = transport.pid!;
    const reason = new Error('3 heartbeat pings unanswered');
    const pending = peer.request('tools/call').catch((error: unknown) => error);
    await waitFor(() => transport.pid !== undefined);
    transport.resetConnection?.(reason);
    const lost = await pending;
    expect(lost).toBeInstanceOf(TransportLostError);
    expect((lost as TransportLostError).transport).toBe('stdio');
    expect((lost as McpError).cause).toBe(reason);
    await waitFor(() => reconnects === 1, { what: 'the restart after the reset' });
    expect(transport.restarts).toBe(1);
    expect(isProcessGone(hung)).toBe(true);
    // The kill is no crash of its own to report: the caller reported why it reset.
    expect(peer.errors.filter((e) => e instanceof ServerExitError)).toHaveLength(0);

    // The same `restart` budget: a second reset within the window closes the transport.
    const second = transport.pid!;
    transport.resetConnection?.(reason);
    await peer.closed;
    expect(transport.closeReason?.message).toContain('restart.maxAttempts (1)');
    await waitFor(() => isProcessGone(second), { what: 'the second process gone' });
    expect(nodeFixture('stubborn.mjs', []).resetConnection).toBeUndefined();
  });

  it('does not restart a server that exits with code 0 (it ended the session), nor without the option', async () => {
    const clean = nodeFixture('dying.mjs', ['--code', '0'], { restart: { initialDelayMs: 5 } });
    const peer = new RpcPeer(clean);
    await clean.start();
    void peer.request('x').catch(() => {});
    await peer.closed;
    expect(clean.restarts).toBe(0);
    const off = nodeFixture('dying.mjs', ['--code', '3']);
    const offPeer = new RpcPeer(off);
    await off.start();
    void offPeer.request('x').catch(() => {});
    await offPeer.closed;
    expect(off.closeReason).toBeInstanceOf(ServerExitError);
    expect(off.restarts).toBe(0);
  });

  it('holds what is sent during the restart until the new process ran onreconnect, then sends it in order', async () => {
    const transport = nodeFixture('echo-server.mjs', [], { restart: { initialDelayMs: 30, jitter: 0 } });
    const peer = new RpcPeer(transport);
    const order: string[] = [];
    let reconnected: () => void = () => {};
    const handshake = new Promise<void>((resolve) => {
      reconnected = resolve;
    });
    transport.onreconnect = async () => {
      order.push('onreconnect');
      // What the client sends here (its new handshake) goes straight out; held messages wait for it.
      order.push(`handshake pid ${((await peer.request('pid')) as { pid: number }).pid}`);
      await handshake;
    };
    await transport.start();
    const first = transport.pid;
    await peer.request('crash').catch(() => {});
    const held = peer.request<{ pid: number }>('pid').then((answer) => {
      order.push('held answered');
      return answer.pid;
    });
    await waitFor(() => order.length === 2, { what: 'the new process and its onreconnect' });
    expect(order).toEqual(['onreconnect', `handshake pid ${transport.pid}`]);
    reconnected();
    expect(await held).toBe(transport.pid);
    expect(transport.pid).not.toBe(first);
    expect(order.at(-1)).toBe('held answered');
  });

  it('close() between a crash and its restart closes at once and spawns nothing more', async () => {
    const transport = nodeFixture('dying.mjs', ['--code', '3'], {
      restart: { initialDelayMs: 60_000, maxDelayMs: 60_000, jitter: 0 },
    });
    const peer = new RpcPeer(transport);
    await transport.start();
    const first = transport.pid;
    await peer.request('x').catch(() => {});
    await transport.close();
    await peer.closed;
    expect(transport.pid).toBe(first);
    expect(transport.restarts).toBe(0);
    await expect(transport.send({ jsonrpc: '2.0', id: 9, method: 'x' })).rejects.toThrow();
  });
});
