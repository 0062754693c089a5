import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InFlightMap, InFlightSet } from '../src/transport-kit.js';

// The collections start over in a fresh table every 1,024 insertions; the runs below (over 800
// insertions on average, up to 3,000 operations) cross that point, so each model check also covers the
// entries carried across.
const operation = fc.oneof(
  {
    arbitrary: fc.record({ op: fc.constant('set' as const), key: fc.integer({ min: 0, max: 80 }) }),
    weight: 6,
  },
  {
    arbitrary: fc.record({ op: fc.constant('delete' as const), key: fc.integer({ min: 0, max: 80 }) }),
    weight: 3,
  },
  {
    arbitrary: fc.record({ op: fc.constant('take' as const), key: fc.integer({ min: 0, max: 80 }) }),
    weight: 2,
  },
);

describe('InFlightMap', () => {
  it('behaves as a Map (same answers, same order) across its table rebuilds', () => {
    fc.assert(
      fc.property(fc.array(operation, { minLength: 1500, maxLength: 3000 }), (ops) => {
        const model = new Map<number, string>();
        const map = new InFlightMap<number, string>();
        ops.forEach(({ op, key }, step) => {
          if (op === 'set') {
            model.set(key, `v${step}`);
            expect(map.set(key, `v${step}`)).toBe(map);
          } else if (op === 'delete') {
            expect(map.delete(key)).toBe(model.delete(key));
          } else {
            // take: the value (or undefined), and the entry is gone.
            expect(map.take(key)).toBe(model.get(key));
            model.delete(key);
          }
          expect(map.size).toBe(model.size);
          expect(map.get(key)).toBe(model.get(key));
          expect(map.has(key)).toBe(model.has(key));
        });
        expect([...map.keys()]).toEqual([...model.keys()]);
        expect([...map.values()]).toEqual([...model.values()]);
      }),
      // A failing run of thousands of operations would shrink for minutes: report the first failure as found.
      { numRuns: 12, endOnFailure: true },
    );
  });

  it('keeps the entries in flight when it starts over (a request opened before the rebuild still settles)', () => {
    const map = new InFlightMap<number, { id: number }>();
    const first = { id: 0 };
    map.set(0, first);
    for (let id = 1; id <= 5000; id++) {
      map.set(id, { id });
      map.delete(id);
    }
    expect(map.size).toBe(1);
    expect(map.get(0)).toBe(first);
    expect([...map.values()]).toEqual([first]);
    map.clear();
    expect(map.size).toBe(0);
    map.set(1, first);
    expect([...map.keys()]).toEqual([1]);
  });
});

describe('InFlightMap around its one-entry form (no table until a second entry, none again once empty)', () => {
  // Few distinct keys, NaN and -0 among them, so runs keep crossing 0, 1 and 2 entries.
  const key = fc.constantFrom<number>(0, -0, 1, 2, Number.NaN);
  const step = fc.oneof(
    fc.record({ op: fc.constant('set' as const), key }),
    fc.record({ op: fc.constant('delete' as const), key }),
    fc.record({ op: fc.constant('clear' as const), key }),
  );

  it('behaves as a Map (same answers, keys and order) through every transition', () => {
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 60 }), (ops) => {
        const model = new Map<number, string>();
        const map = new InFlightMap<number, string>();
        ops.forEach(({ op, key }, index) => {
          if (op === 'set') {
            model.set(key, `v${index}`);
            expect(map.set(key, `v${index}`)).toBe(map);
          } else if (op === 'delete') {
            expect(map.delete(key)).toBe(model.delete(key));
          } else {
            model.clear();
            map.clear();
          }
          expect(map.size).toBe(model.size);
          for (const probe of [0, -0, 1, 2, Number.NaN, 3]) {
            expect(map.get(probe)).toBe(model.get(probe));
            expect(map.has(probe)).toBe(model.has(probe));
          }
          // toEqual tells -0 from +0: a stored -0 must come back as +0, as from a Map.
          expect([...map.keys()]).toEqual([...model.keys()]);
          expect([...map.values()]).toEqual([...model.values()]);
        });
      }),
      { numRuns: 300 },
    );
  });

  it('keeps the first entry first when a second one joins, and the survivor when one leaves', () => {
    const map = new InFlightMap<string, number>();
    map.set('a', 1).set('b', 2);
    expect([...map.keys()]).toEqual(['a', 'b']);
    map.delete('a');
    map.set('c', 3);
    expect([[...map.keys()], [...map.values()]]).toEqual([
      ['b', 'c'],
      [2, 3],
    ]);
  });
});

describe('InFlightMap before its first entry (no table allocated yet)', () => {
  it('answers as an empty Map, and after clear() as a new one', () => {
    const map = new InFlightMap<string, number>();
    expect([map.size, map.get('a'), map.has('a'), map.delete('a')]).toEqual([0, undefined, false, false]);
    expect([...map.keys()]).toEqual([]);
    expect([...map.values()]).toEqual([]);
    map.set('a', 1).set('b', 2);
    expect([...map.keys()]).toEqual(['a', 'b']);
    map.clear();
    expect([map.size, map.has('a'), [...map.values()]]).toEqual([0, false, []]);
    map.set('c', 3);
    expect([...map.keys()]).toEqual(['c']);
    // Two unused maps share nothing mutable: filling one leaves the other empty.
    const other = new InFlightMap<string, number>();
    expect([...other.keys()]).toEqual([]);
  });
});

describe('InFlightSet', () => {
  it('behaves as a Set (same answers, same order) across its table rebuilds', () => {
    fc.assert(
      fc.property(fc.array(operation, { minLength: 1500, maxLength: 3000 }), (ops) => {
        const model = new Set<number>();
        const set = new InFlightSet<number>();
        for (const { op, key } of ops) {
          if (op === 'set') {
            model.add(key);
            expect(set.add(key)).toBe(set);
          } else {
            expect(set.delete(key)).toBe(model.delete(key));
          }
          expect(set.size).toBe(model.size);
          expect(set.has(key)).toBe(model.has(key));
        }
        expect([...set]).toEqual([...model]);
        expect([...set.values()]).toEqual([...model.values()]);
      }),
      // A failing run of thousands of operations would shrink for minutes: report the first failure as found.
      { numRuns: 12, endOnFailure: true },
    );
  });

  it('empties on clear and takes members again', () => {
    const set = new InFlightSet<string>();
    set.add('a').add('b');
    set.clear();
    expect(set.size).toBe(0);
    set.add('c');
    expect([...set]).toEqual(['c']);
  });
});
