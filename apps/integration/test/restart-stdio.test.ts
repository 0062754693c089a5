import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ErrorCode, McpError, TransportLostError } from '@x/protocol';
import { ServerExitError, StdioClientTransport } from '@x/transport-stdio';
import { waitFor } from '@x/test-kit';
import { afterEach, describe, expect, it } from 'vitest';
import { e2eClient, methodsOf, recordSends, Resources, textOf } from './fixtures/e2e-helpers.js';

// Issue 28 §4 end to end: the real Client over a StdioClientTransport with `restart`, driving a real
// McpServer process that crashes. 2026-07-28 basic/transports/stdio, "Unexpected Termination": "the
// client SHOULD restart it ... Active subscriptions/listen streams must also be re-established after
// restart." (runs the fixture from the built packages: pnpm turbo run build --filter=@x/integration...)

const SERVER = fileURLToPath(new URL('./fixtures/restart-stdio-server.mjs', import.meta.url));
const resources = new Resources();
const dirs: string[] = [];
afterEach(async () => {
  await resources.closeAll();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function start(era: 'legacy' | 'modern') {
  const dir = mkdtempSync(join(tmpdir(), 'x-mcp-restart-'));
  dirs.push(dir);
  const { transport, sent } = recordSends(
    new StdioClientTransport({
      command: process.execPath,
      args: [SERVER],
      env: { MARKER: join(dir, 'crashed') },
      stderr: 'pipe',
      restart: { initialDelayMs: 10, maxDelayMs: 100, maxAttempts: 3 },
    }),
  );
  transport.stderr?.resume();
  const client = resources.track(
    e2eClient({ protocolVersion: era, retry: { initialDelayMs: 20, maxDelayMs: 200, maxAttempts: 5 } }),
  );
  const errors: Error[] = [];
  client.onerror = (error) => errors.push(error);
  await client.connect(transport);
  return { client, transport, sent, errors };
}

describe('a crashed stdio server under a running client', () => {
  it('legacy: restarts it, re-initializes, re-subscribes and repeats the read-only call that crashed it', async () => {
    const { client, transport, sent, errors } = await start('legacy');
    await client.listTools(); // the readOnlyHint annotations
    await client.subscribeResource({ uri: 'doc://a' });
    const firstPid = textOf(await client.callTool({ name: 'pid' }));
    const before = sent.length;

    // The first `flaky` call kills the process; the retry reaches the restarted one.
    const pid = textOf(await client.callTool({ name: 'flaky' }));
    expect(pid).not.toBe(firstPid);
    expect(transport.restarts).toBe(1);
    const crash = errors.find((e) => e instanceof ServerExitError) as ServerExitError | undefined;
    expect(crash?.exitCode).toBe(3);
    expect(crash?.stderrTail.at(-1)).toContain('crashing on flaky');
    // On the new process: the handshake first, then the subscription, then the repeated call.
    const after = methodsOf(sent.slice(before));
    expect(after.slice(0, 1)).toEqual(['tools/call']);
    const resumed = after.slice(after.indexOf('initialize'));
    expect(resumed.slice(0, 2)).toEqual(['initialize', 'notifications/initialized']);
    expect(resumed).toContain('resources/subscribe');
    expect(resumed.filter((m) => m === 'tools/call')).toHaveLength(1);

    // The new process knows the subscription: an update reaches the client.
    const updates: string[] = [];
    client.on('resourceUpdated', ({ uri }) => updates.push(uri));
    await client.callTool({ name: 'touch' });
    await waitFor(() => updates.length === 1, { what: 'resources/updated from the new process' });

    // A call not safe to repeat fails with the crash, typed, and is not sent again.
    const failure = (await client.callTool({ name: 'crash' }).catch((error: unknown) => error)) as McpError;
    expect(failure).toBeInstanceOf(TransportLostError);
    expect(failure.code).toBe(ErrorCode.ConnectionClosed);
    expect(failure.data).toMatchObject({ exitCode: 3 });
    // Sent once. (A retry of `flaky` that fired while the server was still restarting was refused by
    // send() and retried again: the wire log may hold it, no server ever saw it.)
    const toolNames = sent.flatMap((m) =>
      'method' in m && m.method === 'tools/call' ? [String(m.params?.['name'])] : [],
    );
    expect(toolNames.filter((name) => name === 'crash')).toHaveLength(1);
    await waitFor(() => transport.restarts === 2, { what: 'the second restart' });
    expect(textOf(await client.callTool({ name: 'pid' }))).not.toBe(pid);
  });

  it('modern: re-sends subscriptions/listen to the restarted process, which delivers to the same stream', async () => {
    await reopensListen(false);
  });

  it('modern: re-sends subscriptions/listen even when an interceptor replaced the lost request error', async () => {
    await reopensListen(true);
  });
});

async function reopensListen(wrapErrors: boolean): Promise<void> {
  const { client, transport } = await start('modern');
  expect(client.era).toBe('modern');
  if (wrapErrors) {
    // An interceptor that rethrows its own error: the TransportLostError it got is gone from view.
    client.use({
      async outgoingRequest(call, next) {
        try {
          return await next(call);
        } catch (error) {
          const failed = error as McpError;
          throw new McpError(failed.code, `wrapped: ${failed.message}`, failed.data);
        }
      },
    });
  }
  const subscription = client.listen({ resourceSubscriptions: ['doc://a'] });
  await subscription.acknowledged;
  const firstId = subscription.id;
  await client.callTool({ name: 'crash' }).catch(() => {});
  await waitFor(() => transport.restarts === 1 && subscription.id !== firstId, {
    what: 'the listen stream re-sent',
  });
  const next = subscription.next();
  let arrived = false;
  void next.then(() => {
    arrived = true;
  });
  await waitFor(
    async () => {
      await client.callTool({ name: 'touch' });
      return arrived;
    },
    { intervalMs: 20, what: 'an update on the re-opened stream' },
  );
  expect((await next).value).toMatchObject({
    method: 'notifications/resources/updated',
    params: { uri: 'doc://a' },
  });
  subscription.close();
}
