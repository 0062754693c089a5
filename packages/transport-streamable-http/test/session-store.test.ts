import { describe, expect, it } from 'vitest';
import { SessionStore } from '../src/server/legacy/session-store.js';
import type { LegacySessionTransport } from '../src/server/legacy/session-transport.js';

/** What the store reads of a session, and a record of being closed. */
function fakeSession(sessionId: string): LegacySessionTransport & { closedBy: string[] } {
  const session = {
    sessionId,
    closed: false,
    busy: false,
    lastActivity: Date.now(),
    closedBy: [] as string[],
    close: async () => {
      session.closed = true;
      session.closedBy.push('store');
    },
  };
  return session as unknown as LegacySessionTransport & { closedBy: string[] };
}

describe('SessionStore', () => {
  it('evicts the least recently used session, however often the newest one was used in between', () => {
    const store = new SessionStore({ idleTimeoutMs: 60_000, maxSessions: 3 });
    const [a, b, c, d, e] = ['a', 'b', 'c', 'd', 'e'].map(fakeSession);
    store.add(a!);
    store.add(b!);
    expect(store.get('a')).toBe(a); // order: b, a
    expect(store.get('a')).toBe(a); // newest already: still b, a
    store.add(c!); // b, a, c
    expect(store.get('b')).toBe(b); // a, c, b
    expect(store.get('b')).toBe(b);
    expect(store.makeRoom()).toBe(true);
    store.add(d!); // a is the least recently used
    expect(a!.closedBy).toEqual(['store']);
    expect(store.get('a')).toBeUndefined();
    store.delete('b'); // the newest goes: c, d
    expect(store.get('c')).toBe(c); // d, c
    store.add(e!); // d, c, e
    expect(store.makeRoom()).toBe(true); // evicts d
    store.add(fakeSession('f'));
    expect(d!.closedBy).toEqual(['store']);
    expect([c, e].map((session) => session!.closedBy)).toEqual([[], []]);
    expect(store.size).toBe(3);
    void store.closeAll();
  });

  it('never evicts a busy session: it skips to the next idle one, and says no when all are busy', () => {
    const store = new SessionStore({ idleTimeoutMs: 60_000, maxSessions: 2 });
    const [a, b] = ['a', 'b'].map(fakeSession);
    store.add(a!);
    store.add(b!);
    (a as { busy: boolean }).busy = true;
    expect(store.makeRoom()).toBe(true); // a is the oldest but busy: b goes
    expect(b!.closedBy).toEqual(['store']);
    expect(a!.closedBy).toEqual([]);
    const c = fakeSession('c');
    store.add(c);
    (c as { busy: boolean }).busy = true;
    expect(store.makeRoom()).toBe(false);
    expect([a!.closedBy, c.closedBy]).toEqual([[], []]);
    expect(store.size).toBe(2);
    void store.closeAll();
  });
});
