import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { StdioServerTransport } from '../src/index.js';
import { cleanup, track } from './helpers.js';

afterEach(cleanup);

// Issue #24 item 13. The end-to-end proof (a tool's console.log forging a response) is in
// apps/integration/test/transport-stdio.test.ts; here: what is replaced, and that close() restores it.
describe('StdioServerTransport on process.stdout redirects console output to stderr', () => {
  const names = [
    'log',
    'info',
    'debug',
    'dir',
    'dirxml',
    'table',
    'group',
    'count',
    'time',
    'timeLog',
  ] as const;

  function onProcessStdout(options: { redirectConsole?: boolean } = {}) {
    return track(
      new StdioServerTransport({
        stdin: new PassThrough(),
        stdout: process.stdout,
        handleSigterm: false,
        ...options,
      }),
    );
  }

  it('replaces the stdout-printing methods while open and restores them on close', async () => {
    const before = names.map((name) => console[name]);
    const warn = console.warn;
    const transport = onProcessStdout();
    await transport.start();
    for (const [i, name] of names.entries()) expect(console[name], name).not.toBe(before[i]);
    expect(console.warn).toBe(warn);
    await transport.close();
    for (const [i, name] of names.entries()) expect(console[name], name).toBe(before[i]);
  });

  it('two transports share one redirect: restored only when the last closes', async () => {
    const log = console.log;
    const first = onProcessStdout();
    const second = onProcessStdout();
    await first.start();
    await second.start();
    await first.close();
    expect(console.log).not.toBe(log);
    await second.close();
    expect(console.log).toBe(log);
  });

  it('leaves console alone with redirectConsole: false, or on a stdout that is not the process one', async () => {
    const log = console.log;
    const optedOut = onProcessStdout({ redirectConsole: false });
    await optedOut.start();
    expect(console.log).toBe(log);
    const piped = track(new StdioServerTransport({ stdin: new PassThrough(), stdout: new PassThrough() }));
    await piped.start();
    expect(console.log).toBe(log);
  });

  it('keeps a method someone replaced after it started', async () => {
    const log = console.log;
    const transport = onProcessStdout();
    await transport.start();
    const mine = (..._args: unknown[]) => undefined;
    console.log = mine;
    await transport.close();
    expect(console.log).toBe(mine);
    console.log = log;
  });
});
