// biome-ignore-all lint/suspicious/noThenProperty: thenables that are not promises are what this tests
import { describe, expect, it } from 'vitest';
import { isThenable } from '../src/internal.js';

describe('isThenable', () => {
  it('says what `await` would wait on: promises, and objects or functions with a then method', () => {
    const callable = Object.assign(() => {}, { then: (ok: (v: number) => void) => ok(1) });
    const thenables: unknown[] = [Promise.resolve(1), { then: () => {} }, callable];
    const others: unknown[] = [undefined, null, 0, 'then', {}, { then: 1 }, () => {}];
    for (const value of thenables) expect(isThenable(value)).toBe(true);
    for (const value of others) {
      expect(isThenable(value)).toBe(false);
    }
  });
});
