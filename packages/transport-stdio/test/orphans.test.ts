import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, collectJsonLines, exitOf, isProcessGone, rawSpawn, track } from './helpers.js';
import { waitFor } from '@x/test-kit';

afterEach(cleanup);

/** Starts `parent.mjs` (a client process) and returns it with the pid of the server it spawned. */
async function startParent(args: string[]) {
  const parent = rawSpawn('parent.mjs', args);
  const lines = collectJsonLines(parent);
  await waitFor(() => lines.length === 1, { timeoutMs: 10_000, what: 'the parent to report its child' });
  const { childPid } = lines[0] as { childPid: number };
  // Should the test fail, the grandchild must not outlive it either.
  track({
    close: () => {
      if (!isProcessGone(childPid)) process.kill(childPid, 'SIGKILL');
    },
  });
  return { parent, childPid };
}

describe('no orphaned servers', () => {
  it('a server of ours exits when its client is SIGKILLed (stdin EOF)', async () => {
    const { parent, childPid } = await startParent(['echo-server.mjs']);
    expect(isProcessGone(childPid)).toBe(false);
    parent.kill('SIGKILL');
    await exitOf(parent);
    await waitFor(() => isProcessGone(childPid), { timeoutMs: 10_000, what: `server ${childPid} to exit` });
  });

  it('the exit hook SIGTERMs a server that ignores EOF when the client exits without closing', async () => {
    const { parent, childPid } = await startParent(['echo-server.mjs', '--busy', '--then-exit']);
    expect(await exitOf(parent)).toEqual({ code: 0, signal: null });
    await waitFor(() => isProcessGone(childPid), { timeoutMs: 10_000, what: `server ${childPid} to exit` });
  });

  it('parentExitSignal: "SIGKILL" takes down a server that ignores both EOF and SIGTERM', async () => {
    const { parent, childPid } = await startParent(['stubborn.mjs', '--then-exit', '--signal', 'SIGKILL']);
    expect(await exitOf(parent)).toEqual({ code: 0, signal: null });
    await waitFor(() => isProcessGone(childPid), { timeoutMs: 10_000, what: `server ${childPid} to exit` });
  });
});
