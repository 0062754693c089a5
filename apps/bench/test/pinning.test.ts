import { execFileSync, spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { canPin, pinned, pinningOf } from '../src/pinning.js';

describe('pinned W1 runs', () => {
  it('pin the client and server of w1-split to a core each and of w1-shared to one core', () => {
    expect(pinningOf('w1-split')).toEqual({ client: 0, server: 1 });
    expect(pinningOf('w1-shared')).toEqual({ client: 1, server: 1 });
    expect(pinningOf('w1')).toBeUndefined();
    expect(pinned({ command: 'node', args: ['server.js', '{}'] }, 1)).toEqual({
      command: 'taskset',
      args: ['-c', '1', 'node', 'server.js', '{}'],
    });
  });

  it.runIf(canPin())('start a process that runs on the given CPU only', async () => {
    const script = "process.stdout.write('up'); setTimeout(() => {}, 5000)";
    const { command, args } = pinned({ command: process.execPath, args: ['-e', script] }, 1);
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'ignore'] });
    try {
      // taskset pins itself, then execs node: once node writes, the pid is node's and pinned.
      await new Promise((resolve) => child.stdout.once('data', resolve));
      const mask = execFileSync('taskset', ['-p', String(child.pid)], { encoding: 'utf8' });
      expect(mask.trim()).toMatch(/mask: 2$/); // CPU 1 only
    } finally {
      child.kill();
    }
  });
});
