import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { PeerNotReadingError, StdioServerTransport } from '../src/index.js';
import { cleanup, nodeFixture, RpcPeer, rawSpawn, track } from './helpers.js';
import { waitFor } from '@x/test-kit';

afterEach(cleanup);

// Issue #35 finding 1 on stdio: a burst of large messages loses nothing (lines wait for the pipe), and
// a peer that stops reading no longer grows this side's memory without bound: past maxQueuedBytes, or
// with nothing leaving for sendStallTimeoutMs, the transport reports PeerNotReadingError and closes.

const MiB = 1024 * 1024;

describe('stdio burst of large messages (issue #35)', () => {
  it('answers 24 concurrent 1 MiB results and a request behind them, with the default limits', async () => {
    const transport = nodeFixture('echo-server.mjs');
    const peer = new RpcPeer(transport);
    await transport.start();
    const big = Array.from({ length: 24 }, () => peer.request<{ data: string }>('big', { size: MiB }));
    const [results, echo] = await Promise.all([Promise.all(big), peer.request('echo', { after: 'burst' })]);
    expect(results.map((result) => result.data.length)).toEqual(results.map(() => MiB));
    expect(echo).toEqual({ params: { after: 'burst' } });
    expect(peer.errors).toEqual([]);
  });

  it('sends 24 concurrent 1 MiB requests to the server and gets every echo back', async () => {
    const transport = nodeFixture('echo-server.mjs');
    const peer = new RpcPeer(transport);
    await transport.start();
    const texts = Array.from({ length: 24 }, (_, i) => `${i}:${'e'.repeat(MiB)}`);
    const results = await Promise.all(
      texts.map((text) => peer.request<{ params: { text: string } }>('echo', { text })),
    );
    expect(results.map((result, i) => result.params.text === texts[i])).toEqual(texts.map(() => true));
  });
});

describe('stdio peer that stops reading (issue #35)', () => {
  /** A server transport writing into the stdin of a real process that never reads it. */
  async function serverIntoDeafPipe(options: { maxQueuedBytes?: number; sendStallTimeoutMs?: number }) {
    const deaf = rawSpawn('deaf.mjs');
    const input = new PassThrough();
    const transport = track(
      new StdioServerTransport({
        stdin: input,
        stdout: deaf.stdin!,
        maxBufferedBytes: 64 * 1024,
        ...options,
      }),
    );
    const errors: Error[] = [];
    transport.onerror = (error) => errors.push(error);
    let closed = false;
    transport.onclose = () => {
      closed = true;
    };
    await transport.start();
    return { transport, errors, isClosed: () => closed };
  }

  const message = (i: number) => ({
    jsonrpc: '2.0' as const,
    method: 'notifications/message',
    params: { level: 'info', data: `${i}:${'d'.repeat(256 * 1024)}` },
  });

  it('server: past maxQueuedBytes the transport reports PeerNotReadingError naming it, closes, and fails the waiting sends', async () => {
    const { transport, errors, isClosed } = await serverIntoDeafPipe({ maxQueuedBytes: MiB });
    const sends = Array.from({ length: 8 }, (_, i) =>
      transport.send(message(i)).then(
        () => 'sent',
        (error: unknown) => error,
      ),
    );
    await waitFor(() => isClosed(), { timeoutMs: 5_000, what: 'the transport to close' });
    expect(errors).toHaveLength(1);
    const error = errors[0] as PeerNotReadingError;
    expect(error).toBeInstanceOf(PeerNotReadingError);
    expect(error.option).toBe('maxQueuedBytes');
    expect(error.message).toMatch(/maxQueuedBytes \(1048576\)/);
    const outcomes = await Promise.all(sends);
    // The first sends fit (and wait for the pipe); the one past the bound and those waiting fail with it.
    expect(outcomes).toContain(error);
    expect(outcomes.every((outcome) => outcome === 'sent' || outcome instanceof Error)).toBe(true);
    await expect(transport.send(message(99))).rejects.toBeInstanceOf(Error);
  });

  it('server: with sends waiting and nothing leaving for sendStallTimeoutMs, PeerNotReadingError names it and the transport closes', async () => {
    const { transport, errors, isClosed } = await serverIntoDeafPipe({ sendStallTimeoutMs: 100 });
    const sends = Array.from({ length: 4 }, (_, i) =>
      transport.send(message(i)).catch((error: unknown) => error),
    );
    await waitFor(() => isClosed(), { timeoutMs: 5_000, what: 'the transport to close' });
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(PeerNotReadingError);
    expect((errors[0] as PeerNotReadingError).option).toBe('sendStallTimeoutMs');
    expect(errors[0]?.message).toMatch(/sendStallTimeoutMs \(100 ms\)/);
    expect(await Promise.all(sends)).toContain(errors[0]);
  });

  it('client: a server that never reads its stdin is given up at maxQueuedBytes: onerror, shut down, pending requests fail at once', async () => {
    const transport = nodeFixture('deaf.mjs', [], { maxBufferedBytes: 64 * 1024, maxQueuedBytes: MiB });
    const peer = new RpcPeer(transport);
    await transport.start();
    const started = Date.now();
    const pending = Array.from({ length: 8 }, (_, i) =>
      peer.request('echo', { i, pad: 'c'.repeat(256 * 1024) }).then(
        () => 'answered',
        (error: unknown) => error,
      ),
    );
    const outcomes = await Promise.all(pending);
    expect(outcomes.every((outcome) => outcome instanceof Error)).toBe(true);
    expect(peer.errors.some((error) => error instanceof PeerNotReadingError)).toBe(true);
    expect(peer.errors.find((error) => error instanceof PeerNotReadingError)?.message).toMatch(
      /maxQueuedBytes \(1048576\)/,
    );
    await peer.closed;
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});
