import { describe, expect, it } from 'vitest';
import { CancelHandle } from '@x/protocol/transport';

describe('CancelHandle', () => {
  it('runs its one callback once, with the reason; a late callback runs at once', () => {
    const handle = new CancelHandle();
    const seen: unknown[] = [];
    handle.onAbort((reason) => seen.push(reason));
    handle.abort('stop');
    handle.abort('again');
    expect(seen).toEqual(['stop']);
    expect(handle.aborted).toBe(true);
    handle.onAbort((reason) => seen.push(`late ${String(reason)}`));
    expect(seen).toEqual(['stop', 'late stop']);
  });

  it('defaults the reason to an AbortError, and its signal follows it whenever it is read', () => {
    const before = new CancelHandle();
    const signal = before.signal;
    before.abort();
    expect(signal.aborted).toBe(true);
    expect((signal.reason as DOMException).name).toBe('AbortError');

    const after = new CancelHandle();
    after.abort(new Error('gone'));
    expect(after.signal.aborted).toBe(true);
    expect((after.signal.reason as Error).message).toBe('gone');
  });
});
