import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { afterMicrotasks } from '@x/test-kit';
import { Protocol } from '../src/engine/index.js';
import type { JSONRPCMessage, RequestId } from '../src/jsonrpc.js';
import { type MessagePriority, PRIORITY_META_KEY } from '../src/message-priority.js';
import { SENT, type Transport, type TransportSendOptions } from '../src/transport.js';

// Issue #42, "per-request order holds under randomized load": random arrivals of the three classes,
// handler completions, progress and cancellations against random limits, checked step by step against
// a model of the queue (normal before bulk, oldest first; urgent never waits).

const runs = { numRuns: 120 } as const;

type Command =
  | { kind: 'arrive'; priority: MessagePriority }
  | { kind: 'finish'; pick: number }
  | { kind: 'progress'; pick: number }
  | { kind: 'cancel'; pick: number };

const command: fc.Arbitrary<Command> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .constantFrom<MessagePriority>('urgent', 'normal', 'normal', 'bulk')
      .map((priority) => ({ kind: 'arrive' as const, priority })),
  },
  { weight: 3, arbitrary: fc.nat(50).map((pick) => ({ kind: 'finish' as const, pick })) },
  { weight: 1, arbitrary: fc.nat(50).map((pick) => ({ kind: 'progress' as const, pick })) },
  { weight: 1, arbitrary: fc.nat(50).map((pick) => ({ kind: 'cancel' as const, pick })) },
);

interface Sent {
  message: JSONRPCMessage;
  options: TransportSendOptions | undefined;
}

/** A transport that records what the engine sends and lets the test deliver messages synchronously. */
function fakeTransport(sent: Sent[]): Transport {
  const transport: Transport = {
    start: async () => {},
    send(message, options) {
      sent.push({ message, options });
      return SENT;
    },
    close: async () => {
      transport.onclose?.();
    },
  };
  return transport;
}

interface Handler {
  progress: () => Promise<void>;
  finish: () => void;
}

async function check(limit: number, maxQueued: number, commands: Command[]): Promise<void> {
  const engine = new Protocol({
    maxConcurrentRequests: limit,
    maxQueuedRequests: maxQueued,
    priority: (message) => (message.params?.['urgent'] === true ? 'urgent' : undefined),
  });
  const sent: Sent[] = [];
  const running = new Map<RequestId, Handler>();
  const started: number[] = [];
  engine.setRequestHandler('work', (params, ctx) => {
    started.push(ctx.requestId as number);
    return new Promise((resolve) => {
      running.set(ctx.requestId, {
        progress: () => ctx.sendProgress({ progress: 1 }),
        finish: () => resolve({ n: params['n'] }),
      });
    });
  });
  const transport = fakeTransport(sent);
  await engine.connect(transport);

  // The model.
  const priorities = new Map<number, MessagePriority>();
  const lanes: { normal: number[]; bulk: number[] } = { normal: [], bulk: [] };
  const cancelledWaiting = new Set<number>();
  const cancelled = new Set<number>();
  const refused = new Set<number>();
  const expectedStarts: number[] = [];
  let slots = 0;
  let nextId = 1;
  const startNext = () => {
    while (slots < limit) {
      const id = lanes.normal.shift() ?? lanes.bulk.shift();
      if (id === undefined) return;
      slots += 1;
      expectedStarts.push(id);
    }
  };

  for (const step of commands) {
    if (step.kind === 'arrive') {
      const id = nextId++;
      priorities.set(id, step.priority);
      const params: Record<string, unknown> = { n: id, _meta: { progressToken: id } };
      if (step.priority === 'urgent') params['urgent'] = true;
      if (step.priority === 'bulk') params['_meta'] = { progressToken: id, [PRIORITY_META_KEY]: 'bulk' };
      const before = started.length;
      transport.onmessage?.({ jsonrpc: '2.0', id, method: 'work', params });
      if (step.priority === 'urgent') {
        // Urgent requests never wait: the handler started within the delivery.
        expect(started.slice(before)).toEqual([id]);
        expectedStarts.push(id);
      } else if (slots < limit) {
        slots += 1;
        expectedStarts.push(id);
      } else if (lanes.normal.length + lanes.bulk.length >= maxQueued) refused.add(id);
      else lanes[step.priority].push(id);
    } else {
      const live = [...running.keys()] as number[];
      const waiting = [...lanes.normal, ...lanes.bulk];
      if (step.kind === 'cancel') {
        const pool = [...live, ...waiting];
        const id = pool[step.pick % Math.max(pool.length, 1)];
        if (id === undefined || cancelled.has(id)) continue;
        cancelled.add(id);
        if (waiting.includes(id)) {
          cancelledWaiting.add(id);
          lanes.normal = lanes.normal.filter((other) => other !== id);
          lanes.bulk = lanes.bulk.filter((other) => other !== id);
        }
        transport.onmessage?.({
          jsonrpc: '2.0',
          method: 'notifications/cancelled',
          params: { requestId: id },
        });
      } else {
        const id = live[step.pick % Math.max(live.length, 1)];
        if (id === undefined) continue;
        const handler = running.get(id) as Handler;
        if (step.kind === 'progress') await handler.progress();
        else {
          running.delete(id);
          handler.finish();
          if (priorities.get(id) !== 'urgent') {
            slots -= 1;
            startNext();
          }
        }
      }
    }
    await afterMicrotasks(8);
    expect(started).toEqual(expectedStarts);
    expect(engine.queuedRequestCount).toBe(lanes.normal.length + lanes.bulk.length);
  }
  // Let everything run to its end.
  while (running.size > 0) {
    for (const [id, handler] of [...running]) {
      running.delete(id);
      handler.finish();
      if (priorities.get(id as number) !== 'urgent') slots -= 1;
    }
    startNext();
    await afterMicrotasks(8);
    expect(started).toEqual(expectedStarts);
  }

  // A request cancelled while it waited never ran.
  for (const id of cancelledWaiting) expect(started).not.toContain(id);
  // Every request is answered exactly once, unless it was cancelled (then at most once: the answer
  // may have been on its way), and nothing of a request follows its answer.
  const answers = new Map<number, number>();
  const closed = new Set<number>();
  for (const { message, options } of sent) {
    if ('method' in message) {
      const token = (message.params as { progressToken: number }).progressToken;
      expect(closed.has(token)).toBe(false);
      continue;
    }
    const id = message.id as number;
    closed.add(id);
    answers.set(id, (answers.get(id) ?? 0) + 1);
    if ('error' in message) {
      expect(refused.has(id)).toBe(true);
      expect(message.error.message).toContain('maxQueuedRequests');
      expect(options?.priority ?? 'urgent').toBe('urgent');
    } else expect(options?.priority).toBe(priorities.get(id));
  }
  for (let id = 1; id < nextId; id += 1) {
    if (cancelled.has(id)) expect(answers.get(id) ?? 0).toBeLessThanOrEqual(1);
    else expect(answers.get(id)).toBe(1);
  }
  expect(engine.activeRequestCount).toBe(0);
  expect(engine.queuedRequestCount).toBe(0);
}

describe('engine: the inbound queue under randomized load (fast-check)', () => {
  it('answers each request once, keeps class then arrival order, never runs a cancelled waiting request, never queues urgent ones', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 4 }),
        fc.integer({ min: 0, max: 6 }),
        fc.array(command, { minLength: 1, maxLength: 40 }),
        check,
      ),
      runs,
    );
  });
});
