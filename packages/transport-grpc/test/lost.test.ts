import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { status } from '@grpc/grpc-js';
import { TransportLostError } from '@x/protocol/transport';
import { waitFor } from '@x/test-kit';
import { afterEach, describe, expect, it } from 'vitest';
import { GrpcStatusError } from '../src/index.js';
import { connectClient, startMcp, textOf } from './helpers.js';

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

/** Starts the hanging server fixture; resolves with its port and a line reader. */
async function startChild(): Promise<{ child: ChildProcess; port: number; lines: string[] }> {
  const fixture = fileURLToPath(new URL('./fixtures/hanging-server.mjs', import.meta.url));
  const child = spawn(process.execPath, [fixture], { stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  const lines: string[] = [];
  let buffered = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    buffered += chunk;
    const parts = buffered.split('\n');
    buffered = parts.pop() ?? '';
    lines.push(...parts);
  });
  await waitFor(() => lines.length > 0, { timeoutMs: 20_000, what: 'the child server port' });
  return { child, port: Number(lines.shift()), lines };
}

describe('a lost server', () => {
  it('kill -9 of the server process fails the pending calls with TransportLostError', async () => {
    const { child, port, lines } = await startChild();
    const { client, transport } = await connectClient(`127.0.0.1:${port}`, { era: 'legacy' });
    const calls = [1, 2, 3].map((n) =>
      client.callTool({ name: 'hang', arguments: { n } }).catch((error: unknown) => error),
    );
    await waitFor(() => lines.filter((line) => line === 'pending').length === 3, { timeoutMs: 20_000 });
    const started = Date.now();
    child.kill('SIGKILL');
    const outcomes = await Promise.all(calls);
    for (const outcome of outcomes) expect(outcome).toBeInstanceOf(TransportLostError);
    expect(String((outcomes[0] as Error).message)).toMatch(/UNAVAILABLE|lost/);
    // At once, not at the request timeout (60 s).
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(transport.closeReason).toBeInstanceOf(TransportLostError);
    await client.close();
  }, 60_000);

  it('with reconnect, a restarted server takes the session up again (the Client repeats its handshake)', async () => {
    const first = await startMcp();
    const port = first.port;
    const { client, transport } = await connectClient(first.target, {
      era: 'legacy',
      reconnect: { initialDelayMs: 50, maxDelayMs: 200, jitter: 0, maxAttempts: 100 },
    });
    try {
      expect(textOf(await client.callTool({ name: 'add', arguments: { a: 1, b: 1 } }))).toBe('2');
      const firstSession = transport.sessionId;
      await first.close();
      await using second = await startMcp({ port });
      await waitFor(() => transport.sessionId !== firstSession && second.service.sessions === 1, {
        timeoutMs: 20_000,
        what: 'the new stream',
      });
      await waitFor(
        async () => {
          try {
            return textOf(await client.callTool({ name: 'add', arguments: { a: 2, b: 2 } })) === '4';
          } catch {
            return false;
          }
        },
        { timeoutMs: 20_000, what: 'a call on the new session' },
      );
    } finally {
      await client.close();
    }
  }, 60_000);

  it('deadlineMs ends the stream with DEADLINE_EXCEEDED, named in closeReason', async () => {
    await using listener = await startMcp();
    const { client, transport } = await connectClient(listener.target, { deadlineMs: 1_000 });
    expect(textOf(await client.callTool({ name: 'add', arguments: { a: 1, b: 1 } }))).toBe('2');
    await waitFor(() => transport.closeReason !== undefined, { timeoutMs: 20_000, what: 'the deadline' });
    expect(transport.closeReason).toBeInstanceOf(GrpcStatusError);
    expect((transport.closeReason as GrpcStatusError).status).toBe(status.DEADLINE_EXCEEDED);
    expect(String(transport.closeReason)).toMatch(/DEADLINE_EXCEEDED \(4\)/);
    await client.close();
  }, 60_000);
});
