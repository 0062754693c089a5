import { describe, expect, it } from 'vitest';
import { SendLimiter } from '../src/client/send-limiter.js';
import { afterTimeouts } from '@x/test-kit';

/** A task that runs until the test releases it, recording when it started and ended. */
function gate(log: string[], name: string) {
  let release!: () => void;
  const done = new Promise<void>((resolve) => (release = resolve));
  return {
    task: async () => {
      log.push(`start ${name}`);
      await done;
      log.push(`end ${name}`);
    },
    release,
  };
}

describe('SendLimiter', () => {
  it('runs up to its cap at once, the rest in order as slots free up', async () => {
    const limiter = new SendLimiter(2);
    const log: string[] = [];
    const [a, b, c] = [gate(log, 'a'), gate(log, 'b'), gate(log, 'c')];
    const runs = [limiter.run(a.task), limiter.run(b.task), limiter.run(c.task)];
    await afterTimeouts();
    expect(log).toEqual(['start a', 'start b']);
    b.release();
    await afterTimeouts();
    expect(log).toEqual(['start a', 'start b', 'end b', 'start c']);
    a.release();
    c.release();
    await Promise.all(runs);
  });

  it('a barrier waits for every earlier task and holds back every later one', async () => {
    const limiter = new SendLimiter(8);
    const log: string[] = [];
    const [a, b, n, c] = [gate(log, 'a'), gate(log, 'b'), gate(log, 'notification'), gate(log, 'c')];
    const runs = [limiter.run(a.task), limiter.run(b.task), limiter.run(n.task, true), limiter.run(c.task)];
    await afterTimeouts();
    expect(log).toEqual(['start a', 'start b']); // c may not overtake the notification
    a.release();
    await afterTimeouts();
    expect(log).toEqual(['start a', 'start b', 'end a']); // the barrier still waits for b
    b.release();
    await afterTimeouts();
    expect(log.slice(3)).toEqual(['end b', 'start notification']);
    n.release();
    await afterTimeouts();
    expect(log.slice(5)).toEqual(['end notification', 'start c']);
    c.release();
    await Promise.all(runs);
  });

  it('a failing task frees its slot and lifts its barrier', async () => {
    const limiter = new SendLimiter(1);
    await expect(limiter.run(() => Promise.reject(new Error('boom')), true)).rejects.toThrow('boom');
    await expect(limiter.run(async () => 'next')).resolves.toBe('next');
  });

  it('gives the slot back before the caller resumes, and after a task that throws at once', async () => {
    const limiter = new SendLimiter(1);
    let started = 0;
    for (let i = 0; i < 3; i++) {
      await limiter.run(async () => i, i === 1);
      // The next task starts synchronously: the slot was free when the await above returned.
      void limiter.run(async () => {
        started++;
      });
      expect(started).toBe(i + 1);
      await afterTimeouts();
    }
    const thrown = limiter.run(() => {
      throw new Error('sync boom');
    });
    await expect(thrown).rejects.toThrow('sync boom');
    await expect(limiter.run(async () => 'after')).resolves.toBe('after');
  });

  it('refuses a cap below 1', () => {
    expect(() => new SendLimiter(0)).toThrow(RangeError);
  });
});
