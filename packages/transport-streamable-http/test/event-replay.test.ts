import { InMemoryEventStore, type JSONRPCMessage } from '@x/protocol/core';
import { describe, expect, it } from 'vitest';
import { EventReplay, type ReplayOutcome } from '../src/server/legacy/event-replay.js';
import { StreamRouter } from '../src/server/legacy/stream-router.js';
import { SseWriter } from '../src/server/sse-writer.js';
import { parseSse, sseMessages } from './helpers.js';

const note = (n: number): JSONRPCMessage => ({
  jsonrpc: '2.0',
  method: 'notifications/message',
  params: { n },
});
const answer = (id: number): JSONRPCMessage => ({ jsonrpc: '2.0', id, result: { id } });

function parts(
  tag = 't',
  eventStore = new InMemoryEventStore(),
): {
  router: StreamRouter;
  replay: EventReplay;
  eventStore: InMemoryEventStore;
  errors: unknown[];
} {
  const errors: unknown[] = [];
  const router = new StreamRouter({ tag, json: false, maxQueued: 10 });
  const replay = new EventReplay({
    eventStore,
    router,
    retryMs: 250,
    keepAliveMs: 0,
    maxBufferedBytes: 1 << 20,
    relay: undefined,
    reportError: (error) => errors.push(error),
  });
  return { router, replay, eventStore, errors };
}

/** Every frame a writer carried, once it is closed. */
async function framesOf(writer: SseWriter): Promise<ReturnType<typeof parseSse>> {
  writer.close();
  return parseSse(await new Response(writer.stream).text());
}

/** The messages a writer carried (priming events left out), once it is closed. */
async function messagesOf(writer: SseWriter): Promise<JSONRPCMessage[]> {
  writer.close();
  return sseMessages(await new Response(writer.stream).text());
}

function attached(outcome: ReplayOutcome): Extract<ReplayOutcome, { kind: 'attached' }> {
  if (outcome.kind !== 'attached') throw new Error(`expected an attached resumption, got ${outcome.kind}`);
  return outcome;
}

describe('EventReplay', () => {
  it('stores each message before writing it with its event id, in order, and settles the request it answers', async () => {
    const { router, replay, eventStore } = parts();
    const channel = router.open([1], false, {});
    const writer = new SseWriter();
    channel.attach(writer);
    const sent = [replay.emit(channel, note(1), undefined), replay.emit(channel, note(2), undefined)];
    router.takeResponseChannel(1);
    const answered = replay.emit(channel, answer(1), 1);
    // The answer is between the engine and the store: drain must wait for it.
    expect(replay.answersBeingStored).toBe(1);
    await Promise.all([...sent, answered]);
    expect(replay.answersBeingStored).toBe(0);
    expect(channel.finished).toBe(true);
    expect(eventStore.size).toBe(3);
    const frames = await framesOf(writer);
    expect(frames.map((frame) => frame.id)).toEqual(['t.0#0', 't.0#1', 't.0#2']);
    expect(frames.map((frame) => JSON.parse(frame.data))).toEqual([note(1), note(2), answer(1)]);
  });

  it('primes a stream with an event id and its retry, and stores that priming event', async () => {
    const { replay, eventStore } = parts();
    const writer = new SseWriter();
    await replay.prime(writer, 't.g');
    expect(await framesOf(writer)).toEqual([{ id: 't.g#0', data: '', retry: 250 }]);
    expect(eventStore.size).toBe(1);
  });

  it('resumes the GET stream after Last-Event-ID: the rest replayed, then live messages on the new connection', async () => {
    const { router, replay } = parts();
    const first = new SseWriter();
    router.standalone.attach(first);
    for (const n of [1, 2, 3]) await replay.emit(router.standalone, note(n), undefined);
    const seen = await framesOf(first);
    const lastSeen = seen[0]?.id as string;

    const outcome = attached(await replay.resume(lastSeen));
    expect(outcome.channel).toBe(router.standalone);
    expect(router.hasOpenStream).toBe(true);
    await replay.emit(router.standalone, note(4), undefined);
    expect(await messagesOf(outcome.writer)).toEqual([note(2), note(3), note(4)]);
  });

  it('sends a message raised during the replay once, whether the replay or the live path carried it', async () => {
    const eventStore = new HookedEventStore();
    const { router, replay } = parts('t', eventStore);
    await replay.emit(router.standalone, note(1), undefined);
    // Stored and written while the replay runs: the replay carries it, the live frame is held, then dropped.
    eventStore.beforeReplay = () => replay.emit(router.standalone, note(2), undefined);
    const outcome = attached(await replay.resume('t.g#0'));
    expect(await messagesOf(outcome.writer)).toEqual([note(2)]);
  });

  it('refuses a Last-Event-ID of another session’s stream or one the store does not know', async () => {
    const eventStore = new InMemoryEventStore();
    const other = parts('other', eventStore);
    await other.replay.emit(other.router.standalone, note(1), undefined);
    await other.replay.emit(other.router.standalone, note(2), undefined);
    const ours = parts('t', eventStore);
    expect((await ours.replay.resume('other.g#0')).kind).toBe('unknown');
    expect((await ours.replay.resume('t.g#42')).kind).toBe('unknown');
    expect(ours.router.hasOpenStream).toBe(false);
  });

  it('replays what a finished POST stream had left and ends the connection there', async () => {
    const { router, replay } = parts();
    const channel = router.open([1], false, {});
    router.markResumable(channel);
    channel.attach(new SseWriter());
    await replay.emit(channel, note(1), undefined);
    router.takeResponseChannel(1);
    await replay.emit(channel, answer(1), 1);
    expect(router.channel('t.0')).toBeUndefined();
    const outcome = await replay.resume('t.0#0');
    expect(outcome.kind).toBe('complete');
    if (outcome.kind !== 'complete') return;
    expect(outcome.writer.closed).toBe(true);
    expect(sseMessages(await new Response(outcome.writer.stream).text())).toEqual([answer(1)]);
  });

  it('answers store-failed, never unknown, when the store cannot replay, and lets held messages go', async () => {
    const eventStore = new HookedEventStore();
    const { router, replay } = parts('t', eventStore);
    const live = new SseWriter();
    router.standalone.attach(live);
    eventStore.beforeReplay = async () => {
      await replay.emit(router.standalone, note(1), undefined);
      throw new Error('store down');
    };
    const outcome = await replay.resume('t.g#0');
    expect(outcome.kind).toBe('store-failed');
    if (outcome.kind === 'store-failed') expect((outcome.error as Error).message).toBe('store down');
    // Held during the failed replay, then written to the connection the stream still had.
    expect(await messagesOf(live)).toEqual([note(1)]);
  });
});

/** The real store, with a step run just before each replay (to race it or fail it). */
class HookedEventStore extends InMemoryEventStore {
  beforeReplay: (() => Promise<void>) | undefined;

  override async replayEventsAfter(
    lastEventId: string,
    sink: { send(eventId: string, message: JSONRPCMessage): Promise<void> | void },
  ): Promise<string | undefined> {
    await this.beforeReplay?.();
    return super.replayEventsAfter(lastEventId, sink);
  }
}
