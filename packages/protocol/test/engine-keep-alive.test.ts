import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const FIXTURE = fileURLToPath(new URL('./fixtures/keep-alive.mjs', import.meta.url));

// A real Node process (the built package), since only the event loop can tell whether the engine's
// timer holds the process open: fake timers record ref/unref but never keep anything alive.
describe('engine: the request timer and a Node process', () => {
  it('lets the process exit once every request is answered', async () => {
    // Held after the last answer, the timer would keep it alive until the 60 s default timeout.
    const { stdout } = await run(process.execPath, [FIXTURE, 'answered'], { timeout: 20_000 });
    expect(stdout.trim()).toBe('answered 5');
  });

  it('keeps the process alive while a request is pending, until its timeout rejects it', async () => {
    // Not held, Node would exit at once with the top-level await unsettled (exit code 13, no output).
    const { stdout } = await run(process.execPath, [FIXTURE, 'unanswered'], { timeout: 20_000 });
    expect(stdout.trim()).toBe('rejected: RequestTimeoutError');
  });
});
