import {
  DEFAULT_MAX_EVENTS_PER_STREAM,
  type EventStore,
  type JSONRPCMessage,
  type MessageBus,
} from '@x/protocol';
import { defineScript } from 'redis';
import {
  DEFAULT_PREFIX,
  isKeySafe,
  type RedisClient,
  type RedisStoreOptions,
  sendKeyed,
  unsafeId,
} from './redis-client.js';
import { routeOn } from './redis-message-bus.js';

/**
 * How long a Redis event stream nobody writes to lives (`streamTtlMs`, its key's TTL, renewed per
 * event): 1 hour, far past any reconnect a client makes, so abandoned streams leave Redis on their own.
 *
 * @example
 * ```ts
 * const eventStore = new RedisEventStore({ client, streamTtlMs: DEFAULT_EVENT_STREAM_TTL_MS / 4 });
 * ```
 */
export const DEFAULT_EVENT_STREAM_TTL_MS = 60 * 60_000;

/**
 * Options for {@link RedisEventStore}.
 *
 * @example
 * ```ts
 * new RedisEventStore({ client, maxEventsPerStream: 500, streamTtlMs: 10 * 60_000 });
 * ```
 */
export interface RedisEventStoreOptions extends RedisStoreOptions {
  /** Events kept per stream (`XADD … MAXLEN =`); older ones are trimmed. Default `DEFAULT_MAX_EVENTS_PER_STREAM` (1 000). */
  maxEventsPerStream?: number | undefined;
  /** A stream nobody wrote to for this long is deleted (its key's TTL, renewed per event). Default {@link DEFAULT_EVENT_STREAM_TTL_MS} (1 h). */
  streamTtlMs?: number | undefined;
}

/** Separates the stream id from the Redis entry id in an event id (`<streamId>#<ms>-<seq>`). */
const SEPARATOR = '#';
const REPLAY_PAGE = 500;

/**
 * `storeEventAndPublish` in one round trip: what `storeEvent` runs (`XADD … MAXLEN =`, `PEXPIRE`) and
 * the bus's `PUBLISH` (or `SPUBLISH`), atomically. KEYS[1] the stream; ARGV: MAXLEN, TTL ms, the
 * message's JSON, the channel, and the payload's head up to the entry id (`{"e":"<streamId>#`, escaped
 * by JSON.stringify), so the published text is byte for byte `JSON.stringify({ e: eventId, m: message })`
 * (no cjson). The channel `<prefix>bus:stream:{<streamId>}` shares the stream key's slot, which a
 * cluster requires of a script's `SPUBLISH`.
 */
function storeAndPublish(publish: 'PUBLISH' | 'SPUBLISH') {
  return defineScript({
    NUMBER_OF_KEYS: 1,
    SCRIPT: `local id = redis.call('XADD', KEYS[1], 'MAXLEN', '=', ARGV[1], '*', 'm', ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
redis.call('${publish}', ARGV[4], ARGV[5] .. id .. '","m":' .. ARGV[3] .. '}')
return id`,
    parseCommand(): void {
      // Run through `sendCommand` (see storeEventAndPublish): the caller's client has no scripts defined.
    },
    transformReply: (reply: unknown) => reply,
  });
}

const STORE_AND_PUBLISH = storeAndPublish('PUBLISH');
const STORE_AND_SPUBLISH = storeAndPublish('SPUBLISH');

/**
 * An {@link EventStore} on Redis Streams: one stream per SSE stream (`<prefix>events:{<streamId>}`, hash-tagged so a
 * cluster places each stream by its id alone),
 * bounded by `MAXLEN` and expiring when unused, so every process of a cluster can resume any stream
 * with `Last-Event-ID` (2025-11-25 transports, "Resumability and Redelivery"). Event ids are the stream
 * id plus the Redis entry id, so ids grow in send order and a replay is one `XRANGE`.
 *
 * @example
 * ```ts
 * const client = await createClient({ url: process.env.REDIS_URL }).connect();
 * const handler = createStreamableHttpHandler({ onsession, eventStore: new RedisEventStore({ client }) });
 * ```
 */
export class RedisEventStore implements EventStore {
  readonly #client: RedisClient;
  readonly #prefix: string;
  readonly #max: number;
  readonly #ttlMs: number;
  /** False once Redis refused a script with NOPERM (a user without `+@scripting`): store, then publish. */
  #scripting = true;
  /** The script's MAXLEN and TTL arguments, made once. */
  readonly #scriptLimits: [string, string];

  constructor(options: RedisEventStoreOptions) {
    this.#client = options.client;
    this.#prefix = `${options.prefix ?? DEFAULT_PREFIX}events:`;
    this.#max = options.maxEventsPerStream ?? DEFAULT_MAX_EVENTS_PER_STREAM;
    this.#ttlMs = options.streamTtlMs ?? DEFAULT_EVENT_STREAM_TTL_MS;
    this.#scriptLimits = [String(this.#max), String(this.#ttlMs)];
  }

  async storeEvent(streamId: string, message: JSONRPCMessage | undefined): Promise<string> {
    if (!isKeySafe(streamId)) throw unsafeId('Stream', streamId);
    const key = this.#key(streamId);
    // The priming event (no message) is an empty `m`: it takes an id, and is never replayed.
    const replies = await this.#client
      .multi()
      .xAdd(
        key,
        '*',
        { m: message === undefined ? '' : JSON.stringify(message) },
        {
          TRIM: { strategy: 'MAXLEN', strategyModifier: '=', threshold: this.#max },
        },
      )
      .pExpire(key, this.#ttlMs)
      .exec();
    return `${streamId}${SEPARATOR}${String(replies[0])}`;
  }

  /**
   * Stores the event and publishes `{ e: eventId, m: message }` on `topic` of `bus` in ONE round trip
   * (a Lua script: `XADD`, `PEXPIRE`, `PUBLISH` or, sharded, `SPUBLISH`) when `bus` is a `RedisMessageBus` on this store's
   * client; otherwise stores, then publishes (two round trips, or one and the other bus's cost).
   */
  async storeEventAndPublish(
    streamId: string,
    message: JSONRPCMessage,
    bus: MessageBus,
    topic: string,
  ): Promise<string> {
    if (!isKeySafe(streamId)) throw unsafeId('Stream', streamId);
    const route = this.#scripting ? await routeOn(bus, this.#client, topic) : undefined;
    if (route === undefined) return this.#storeThenPublish(streamId, message, bus, topic);
    const script = route.sharded ? STORE_AND_SPUBLISH : STORE_AND_PUBLISH;
    const head = JSON.stringify(`${streamId}${SEPARATOR}`);
    const [max, ttl] = this.#scriptLimits;
    const key = this.#key(streamId);
    const command = [
      'EVALSHA',
      script.SHA1,
      '1',
      key,
      max,
      ttl,
      JSON.stringify(message),
      route.channel,
      `{"e":${head.slice(0, -1)}`,
    ];
    let entryId: unknown;
    try {
      entryId = await sendKeyed(this.#client, key, command);
    } catch (error) {
      if (!(error instanceof Error)) throw error;
      // A Redis user without `+@scripting` (ACL): the two-step path from now on, which needs only
      // XADD/PEXPIRE/PUBLISH. The script never ran, so nothing was stored twice.
      if (error.message.startsWith('NOPERM')) {
        this.#scripting = false;
        return this.#storeThenPublish(streamId, message, bus, topic);
      }
      // Not in this server's script cache (first use, a restart, SCRIPT FLUSH): EVAL caches it.
      if (!error.message.startsWith('NOSCRIPT')) throw error;
      command[0] = 'EVAL';
      command[1] = script.SCRIPT as string;
      entryId = await sendKeyed(this.#client, key, command);
    }
    return `${streamId}${SEPARATOR}${String(entryId)}`;
  }

  async #storeThenPublish(streamId: string, message: JSONRPCMessage, bus: MessageBus, topic: string) {
    const eventId = await this.storeEvent(streamId, message);
    await bus.publish(topic, { e: eventId, m: message });
    return eventId;
  }

  async getStreamIdForEventId(eventId: string): Promise<string | undefined> {
    return split(eventId)?.streamId;
  }

  async replayEventsAfter(
    lastEventId: string,
    sink: { send(eventId: string, message: JSONRPCMessage): Promise<void> | void },
  ): Promise<string | undefined> {
    const parts = split(lastEventId);
    if (parts === undefined) return undefined;
    const { streamId, entryId } = parts;
    const key = this.#key(streamId);
    // The cursor itself must still be held; otherwise events after it were trimmed and are lost.
    const cursor = await this.#client.xRange(key, entryId, entryId, { COUNT: 1 });
    if (cursor.length === 0) return undefined;
    let after = entryId;
    for (;;) {
      const page = await this.#client.xRange(key, `(${after}`, '+', { COUNT: REPLAY_PAGE });
      for (const entry of page) {
        const text = entry.message['m'];
        if (typeof text === 'string' && text !== '') {
          await sink.send(`${streamId}${SEPARATOR}${entry.id}`, JSON.parse(text) as JSONRPCMessage);
        }
        after = entry.id;
      }
      if (page.length < REPLAY_PAGE) return streamId;
    }
  }

  /** The stream's key; `{<streamId>}` is its hash tag (an id holds no `{` `}`). */
  #key(streamId: string): string {
    return `${this.#prefix}{${streamId}}`;
  }
}

function split(eventId: string): { streamId: string; entryId: string } | undefined {
  const at = eventId.lastIndexOf(SEPARATOR);
  if (at <= 0) return undefined;
  const entryId = eventId.slice(at + 1);
  if (!/^\d{1,20}-\d{1,20}$/.test(entryId)) return undefined;
  const streamId = eventId.slice(0, at);
  // A `Last-Event-ID` comes from the client: one that could name another key names no stream.
  return isKeySafe(streamId) ? { streamId, entryId } : undefined;
}
