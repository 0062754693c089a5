import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { ConnectionClosedError, RequestTimeoutError } from '../src/errors.js';
import {
  DEFAULT_MAX_TOTAL_TIMEOUT_MS,
  DEFAULT_REQUEST_TIMEOUT_MS,
  PROGRESS_UNASKED_METHODS,
  Protocol,
} from '../src/engine/index.js';
import { engineWithRawPeer } from './engine-helpers.js';
import { afterMicrotasks, afterNextTick } from '@x/test-kit';

const Empty = z.object({});

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

function progress(token: number, value: number) {
  return {
    jsonrpc: '2.0' as const,
    method: 'notifications/progress',
    params: { progressToken: token, progress: value },
  };
}

describe('engine: timeouts', () => {
  it('defaults to 60 s, then rejects with RequestTimeoutError and sends notifications/cancelled', async () => {
    expect(DEFAULT_REQUEST_TIMEOUT_MS).toBe(60_000);
    const { engine, wire } = await engineWithRawPeer();
    const pending = engine.request({ method: 'slow' }, Empty);
    const outcome = pending.catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(59_999);
    expect(engine.pendingRequestCount).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    const error = await outcome;
    expect(error).toBeInstanceOf(RequestTimeoutError);
    expect(error).toMatchObject({
      message: 'Request slow timed out after 60000 ms',
      data: { timeout: 60_000 },
    });
    await afterMicrotasks(20);
    expect(wire).toEqual([
      { jsonrpc: '2.0', id: 1, method: 'slow', params: { _meta: { progressToken: 1 } } },
      {
        jsonrpc: '2.0',
        method: 'notifications/cancelled',
        params: { requestId: 1, reason: 'Request slow timed out after 60000 ms' },
      },
    ]);
    expect(engine.pendingRequestCount).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('lets the engine options and then the request options override the default', async () => {
    const { engine } = await engineWithRawPeer(new Protocol({ timeout: 1_000 }));
    const engineDefault = engine.request({ method: 'a' }, Empty).catch((e: unknown) => e);
    const perRequest = engine.request({ method: 'b' }, Empty, { timeout: 5_000 }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(await engineDefault).toBeInstanceOf(RequestTimeoutError);
    expect(engine.pendingRequestCount).toBe(1);
    await vi.advanceTimersByTimeAsync(4_000);
    expect(await perRequest).toBeInstanceOf(RequestTimeoutError);
  });

  it('arms one timer for many requests, and it stops holding the process once nothing is pending', async () => {
    const { engine, inject } = await engineWithRawPeer();
    const arm = vi.spyOn(globalThis, 'setTimeout');
    const first = engine.request({ method: 'fast' }, Empty);
    expect(vi.getTimerCount()).toBe(1);
    const timer = arm.mock.results[0]?.value as NodeJS.Timeout;
    expect(timer.hasRef()).toBe(true); // a pending request keeps Node alive, as a per-request timer did
    await inject({ jsonrpc: '2.0', id: 1, result: {} });
    await expect(first).resolves.toEqual({});
    await afterNextTick();
    expect(timer.hasRef()).toBe(false); // an answered request must not keep the process running

    const second = engine.request({ method: 'fast' }, Empty);
    const third = engine.request({ method: 'fast' }, Empty);
    expect(arm).toHaveBeenCalledTimes(1); // due later than the armed timer: nothing new to arm
    expect(timer.hasRef()).toBe(true);
    await inject({ jsonrpc: '2.0', id: 2, result: {} });
    expect(timer.hasRef()).toBe(true); // the third request still waits
    await inject({ jsonrpc: '2.0', id: 3, result: {} });
    await Promise.all([second, third]);
    await afterNextTick();
    expect(timer.hasRef()).toBe(false);
    arm.mockRestore();
  });

  it('keeps the timer held across a request sent straight from an answer, and lets go at the end of the tick', async () => {
    const { engine, inject } = await engineWithRawPeer();
    const arm = vi.spyOn(globalThis, 'setTimeout');
    const first = engine.request({ method: 'a' }, Empty);
    const timer = arm.mock.results[0]?.value as NodeJS.Timeout;
    const unref = vi.spyOn(timer, 'unref');
    const ref = vi.spyOn(timer, 'ref');
    await inject({ jsonrpc: '2.0', id: 1, result: {} });
    await first;
    // The next call of a sequential loop goes out in the same tick as the answer to the last one.
    const second = engine.request({ method: 'b' }, Empty);
    await afterNextTick();
    expect(timer.hasRef()).toBe(true);
    expect(unref).not.toHaveBeenCalled();
    expect(ref).not.toHaveBeenCalled();

    await inject({ jsonrpc: '2.0', id: 2, result: {} });
    await second;
    expect(timer.hasRef()).toBe(true); // still this tick
    await afterNextTick();
    expect(timer.hasRef()).toBe(false);
    expect(unref).toHaveBeenCalledTimes(1);
    arm.mockRestore();
  });

  it('re-arms for a request due sooner than the armed timer, and times out each request at its own deadline', async () => {
    const { engine } = await engineWithRawPeer();
    const slow = engine.request({ method: 'slow' }, Empty, { timeout: 10_000 }).catch((e: unknown) => e);
    let fastSettled = false;
    const fast = engine
      .request({ method: 'fast' }, Empty, { timeout: 1_000 })
      .catch((e: unknown) => e)
      .finally(() => {
        fastSettled = true;
      });
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(999);
    expect(fastSettled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await fast).toBeInstanceOf(RequestTimeoutError);
    expect(engine.pendingRequestCount).toBe(1);
    await vi.advanceTimersByTimeAsync(8_999);
    expect(engine.pendingRequestCount).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(await slow).toBeInstanceOf(RequestTimeoutError);
    expect(engine.pendingRequestCount).toBe(0);
  });

  it('restarts the idle timeout on each progress notification by default', async () => {
    const { engine, inject } = await engineWithRawPeer();
    let settled = false;
    const pending = engine
      .request({ method: 'long' }, Empty, { timeout: 1_000, onprogress: () => {} })
      .finally(() => {
        settled = true;
      })
      .catch((e: unknown) => e);
    for (let i = 1; i <= 5; i++) {
      await vi.advanceTimersByTimeAsync(900);
      await inject(progress(1, i));
    }
    expect(settled).toBe(false); // 4.5 s total, well past the 1 s idle timeout
    await vi.advanceTimersByTimeAsync(999);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await pending).toBeInstanceOf(RequestTimeoutError);
  });

  it('asks for progress without a callback, so a peer that reports keeps the request alive', async () => {
    const { engine, inject, wire } = await engineWithRawPeer();
    let settled = false;
    const pending = engine
      .request({ method: 'tools/call', params: { name: 'build' } }, Empty, { timeout: 1_000 })
      .finally(() => {
        settled = true;
      })
      .catch((e: unknown) => e);
    await afterMicrotasks(5);
    expect(wire[0]).toEqual({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'build', _meta: { progressToken: 1 } },
    });
    for (let i = 1; i <= 5; i++) {
      await vi.advanceTimersByTimeAsync(900);
      await inject(progress(1, i));
    }
    expect(settled).toBe(false); // 4.5 s, no onprogress given
    await inject({ jsonrpc: '2.0', id: 1, result: {} });
    expect(await pending).toEqual({});
  });

  it('asks no progress for ping, initialize and task polls, with resetTimeoutOnProgress off, nor without a timeout', async () => {
    const { engine, wire } = await engineWithRawPeer();
    for (const method of PROGRESS_UNASKED_METHODS) {
      void engine.request({ method }, Empty).catch(() => {});
    }
    void engine.request({ method: 'tools/call' }, Empty, { resetTimeoutOnProgress: false }).catch(() => {});
    void engine
      .request({ method: 'tools/call' }, Empty, { timeout: Number.POSITIVE_INFINITY })
      .catch(() => {});
    // A token the caller set is kept as it is (a task's token outlives the request that carried it).
    const own = { _meta: { progressToken: 'task-7' } };
    void engine.request({ method: 'tools/call', params: own }, Empty).catch(() => {});
    await afterMicrotasks(5);
    const paramsOf = wire.map((m) => ('params' in m ? m.params : undefined));
    expect(paramsOf).toEqual([...PROGRESS_UNASKED_METHODS.map(() => undefined), undefined, undefined, own]);
    expect(PROGRESS_UNASKED_METHODS).toEqual(
      expect.arrayContaining(['ping', 'initialize', 'server/discover']),
    );
    await engine.close();
  });

  it('a request that asked without a callback still times out when progress stops', async () => {
    const { engine, inject } = await engineWithRawPeer();
    const pending = engine.request({ method: 'long' }, Empty, { timeout: 1_000 }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(900);
    await inject(progress(1, 1));
    await vi.advanceTimersByTimeAsync(999);
    expect(engine.pendingRequestCount).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(await pending).toBeInstanceOf(RequestTimeoutError);
  });

  it('does not restart the timeout when resetTimeoutOnProgress is false', async () => {
    const { engine, inject } = await engineWithRawPeer();
    const pending = engine
      .request({ method: 'long' }, Empty, {
        timeout: 1_000,
        resetTimeoutOnProgress: false,
        onprogress: () => {},
      })
      .catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(900);
    await inject(progress(1, 1));
    await vi.advanceTimersByTimeAsync(100);
    expect(await pending).toBeInstanceOf(RequestTimeoutError);
  });

  it('enforces maxTotalTimeout even while progress keeps arriving', async () => {
    const { engine, inject, wire } = await engineWithRawPeer();
    const pending = engine
      .request({ method: 'endless' }, Empty, { timeout: 1_000, maxTotalTimeout: 3_000, onprogress: () => {} })
      .catch((e: unknown) => e);
    for (let i = 1; i <= 5; i++) {
      await vi.advanceTimersByTimeAsync(500);
      await inject(progress(1, i));
    }
    // 2.5 s in: idle timer keeps being pushed back, the hard limit is not.
    expect(engine.pendingRequestCount).toBe(1);
    await vi.advanceTimersByTimeAsync(500);
    const error = await pending;
    expect(error).toBeInstanceOf(RequestTimeoutError);
    expect(error).toMatchObject({
      message: 'Request endless exceeded its maximum total timeout of 3000 ms',
      data: { timeout: 1_000, maxTotalTimeout: 3_000 },
    });
    await afterMicrotasks(20);
    expect(wire.at(-1)).toMatchObject({ method: 'notifications/cancelled', params: { requestId: 1 } });
  });

  it('has a 10 minute hard maximum by default, configurable per engine', async () => {
    expect(DEFAULT_MAX_TOTAL_TIMEOUT_MS).toBe(600_000);
    const { engine, inject } = await engineWithRawPeer();
    const pending = engine.request({ method: 'x' }, Empty, { onprogress: () => {} }).catch((e: unknown) => e);
    for (let t = 0; t < 600_000; t += 30_000) {
      await inject(progress(1, t));
      await vi.advanceTimersByTimeAsync(30_000);
    }
    expect(await pending).toMatchObject({
      message: 'Request x exceeded its maximum total timeout of 600000 ms',
    });

    const short = await engineWithRawPeer(new Protocol({ maxTotalTimeout: 2_000, timeout: 10_000 }));
    const capped = short.engine.request({ method: 'y' }, Empty).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(await capped).toBeInstanceOf(RequestTimeoutError);
  });

  it('never times out with Infinity for both limits', async () => {
    const { engine } = await engineWithRawPeer();
    const pending = engine
      .request({ method: 'x' }, Empty, { timeout: Infinity, maxTotalTimeout: Infinity })
      .catch((e: unknown) => e);
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(3_600_000);
    expect(engine.pendingRequestCount).toBe(1);
    await engine.close();
    expect(await pending).toBeInstanceOf(ConnectionClosedError);
  });

  it('does not send notifications/cancelled when initialize times out', async () => {
    const { engine, wire } = await engineWithRawPeer();
    const pending = engine.request({ method: 'initialize' }, Empty, { timeout: 10 }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(10);
    expect(await pending).toBeInstanceOf(RequestTimeoutError);
    await afterMicrotasks(20);
    expect(wire.map((m) => ('method' in m ? m.method : 'response'))).toEqual(['initialize']);
  });

  it('ignores a response arriving after the timeout without reporting it', async () => {
    const { engine, errors, inject } = await engineWithRawPeer();
    const pending = engine.request({ method: 'x' }, Empty, { timeout: 10 }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(10);
    await pending;
    await inject({ jsonrpc: '2.0', id: 1, result: {} });
    expect(errors).toEqual([]);
  });
});
