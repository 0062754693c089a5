import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Heartbeat, type HeartbeatSocket } from '../src/heartbeat.js';

function fakeSocket(): HeartbeatSocket & { pings: number; terminated: boolean } {
  return {
    readyState: 1,
    OPEN: 1,
    pings: 0,
    terminated: false,
    ping() {
      this.pings += 1;
    },
    terminate() {
      this.terminated = true;
    },
  };
}

describe('Heartbeat', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('runs one timer for every heartbeat of an interval, and none once they stop', () => {
    const sockets = Array.from({ length: 50 }, fakeSocket);
    const beats = sockets.map((socket) => new Heartbeat(1_000, socket));
    const other = new Heartbeat(2_000, fakeSocket());
    expect(vi.getTimerCount()).toBe(2);
    for (const beat of beats) beat.stop();
    other.stop();
    expect(vi.getTimerCount()).toBe(0);
    const again = new Heartbeat(1_000, fakeSocket());
    expect(vi.getTimerCount()).toBe(1);
    again.stop();
  });

  it('pings a peer that keeps answering and drops one silent for a whole interval after a ping', () => {
    const chatty = fakeSocket();
    const silent = fakeSocket();
    const chattyBeat = new Heartbeat(1_000, chatty);
    new Heartbeat(1_000, silent);
    vi.advanceTimersByTime(1_000); // both were alive at the start: pinged
    expect([chatty.pings, silent.pings]).toEqual([1, 1]);
    chattyBeat.markAlive();
    vi.advanceTimersByTime(1_000); // the silent one never answered: dropped
    expect(silent.terminated).toBe(true);
    expect(chatty.terminated).toBe(false);
    expect(chatty.pings).toBe(2);
    expect(vi.getTimerCount()).toBe(1); // the chatty one still beats
    chattyBeat.stop();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('does not ping a socket that is not open, and one failing socket does not stop the others', () => {
    const closing = { ...fakeSocket(), readyState: 2 };
    const broken = fakeSocket();
    broken.ping = () => {
      throw new Error('socket bug');
    };
    const healthy = fakeSocket();
    const beats = [new Heartbeat(500, closing), new Heartbeat(500, broken), new Heartbeat(500, healthy)];
    const uncaught: unknown[] = [];
    const rethrow = vi.spyOn(globalThis, 'queueMicrotask').mockImplementation((task) => {
      try {
        task();
      } catch (error) {
        uncaught.push(error);
      }
    });
    vi.advanceTimersByTime(500);
    rethrow.mockRestore();
    expect(closing.pings).toBe(0);
    expect(healthy.pings).toBe(1);
    expect(uncaught).toEqual([new Error('socket bug')]);
    for (const beat of beats) beat.stop();
  });
});
