import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFuzzConfig } from '../src/fuzz-config.js';
import { type FuzzSession, type FuzzTarget, fuzzTransport, legacyHandshake } from '../src/fuzz-run.js';
import { createIdSource } from '../src/hostile-input.js';
import { StreamSession } from '../src/stream-session.js';
import { watchUnhandled } from './watch-unhandled.js';

// Issue #24, "Prove it stays fixed": hostile lines at a real stdio server process (an McpServer on
// StdioServerTransport). Every request answered exactly once; refused lines get id null and -32700 or
// -32600 (JSON-RPC 2.0 § 5.1); the process survives; its heap stays bounded.

const config = readFuzzConfig();
const SERVER = fileURLToPath(new URL('./fixtures/stdio-fuzz-server.mjs', import.meta.url));
const BUILT = ['server', 'transport-stdio', 'protocol'].map((name) =>
  fileURLToPath(new URL(`../../../packages/${name}/dist/index.js`, import.meta.url)),
);
const unhandled = watchUnhandled();
let sessions = 0;

beforeAll(() => {
  const missing = BUILT.filter((path) => !existsSync(path));
  if (missing.length > 0)
    throw new Error(`Build first (pnpm turbo run build --filter=@x/fuzz...); missing ${missing.join(', ')}`);
});
afterAll(() => unhandled.stop());

async function openStdio(): Promise<FuzzSession> {
  const child = spawn(process.execPath, ['--expose-gc', SERVER], { stdio: ['pipe', 'pipe', 'pipe'] });
  const ids = createIdSource(`stdio${sessions++}`);
  let exited = false;
  let heapWaiter: ((bytes: number) => void) | undefined;
  const session: StreamSession = new StreamSession({
    ids,
    write: (text) => {
      if (!exited) child.stdin.write(`${text}\n`);
    },
    close: async () => {
      if (exited) return;
      const gone = new Promise((resolve) => child.once('exit', resolve));
      child.stdin.end();
      await gone;
    },
    serverMemory: () =>
      new Promise<number>((resolve) => {
        heapWaiter = resolve;
        child.kill('SIGUSR2');
      }),
  });
  child.stdin.on('error', () => undefined);
  child.once('exit', (code, signal) => {
    exited = true;
    session.fail(`server process exited (code ${code}, signal ${signal})`);
  });
  createInterface({ input: child.stdout }).on('line', (line) => {
    try {
      session.receive(JSON.parse(line));
    } catch {
      session.fail(`server wrote a line that is not JSON: ${line.slice(0, 200)}`);
    }
  });
  const ready = new Promise<void>((resolve) => {
    createInterface({ input: child.stderr }).on('line', (line) => {
      if (line === 'fuzz-server ready') resolve();
      const heap = /^heap (\d+)$/.exec(line);
      if (heap !== null) heapWaiter?.(Number(heap[1]));
    });
  });
  await ready;
  await legacyHandshake(session, '2025-11-25');
  return session;
}

const target: FuzzTarget = { transport: 'stdio server (child process)', open: openStdio };

describe('fuzz: stdio server transport', () => {
  it('answers every hostile line exactly once or refuses it, and stays up', {
    timeout: config.long ? 3_600_000 : 120_000,
  }, async () => {
    const summary = await fuzzTransport(target, config);
    expect(summary.failures).toEqual([]);
    expect(unhandled.errors).toEqual([]);
  });
});
