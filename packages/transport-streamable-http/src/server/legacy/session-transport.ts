import {
  ErrorCode,
  isJSONRPCErrorResponse,
  isJSONRPCNotification,
  isJSONRPCRequest,
  isJSONRPCResponse,
  isJSONRPCResultResponse,
  type JSONRPCErrorResponse,
  type JSONRPCMessage,
  type MessageExtraInfo,
  type RequestId,
  type TransportSendOptions,
  SENT,
} from '@x/protocol/core';
import { InFlightMap } from '@x/protocol/transport';
import { encodeMessage, encodedText } from '../encode-message.js';
import { accepted, badRequest, errorResponse, jsonResponse, sseResponse } from '../http-responses.js';
import type { StreamableHttpServerTransport } from '../options.js';
import { ResponseChannel } from '../response-channel.js';
import { ServerTransportBase } from '../server-transport-base.js';
import { SseWriter } from '../sse-writer.js';
import { storeUnavailable } from '../store-unavailable.js';
import type { EventStore, Unsubscribe } from '@x/protocol/core';
import {
  globalRequestId,
  isBroadcast,
  isStreamPayload,
  localRequestId,
  repliesTopic,
  type SessionBus,
  streamTopic,
} from './session-bus.js';

/** Settings a session shares with its handler. */
export interface SessionSettings {
  json: boolean;
  eventStore: EventStore | undefined;
  retryMs: number;
  keepAliveMs: number;
  maxQueued: number;
  /** Bytes an SSE reader may fall behind before its stream is dropped (`maxBufferedBytes`). */
  maxBufferedBytes: number;
  /** `messageBus` and this process's `instanceId`: sessions shared between processes (DESIGN §9). */
  shared?: SessionBus | undefined;
}

/** The per-POST context the handler passes in. */
export interface PostContext {
  extra: MessageExtraInfo;
  batch: boolean;
  /** Answers to the invalid elements of a batch, sent with the responses to its requests. */
  errors: readonly JSONRPCErrorResponse[];
}

// Empty `data:` lines (priming events) broke clients before 2025-11-25, which made them legal.
const PRIMING_SINCE = '2025-11-25';

/** The -32600 answer to a request whose id is already in flight on the session (issue #24, item 10). */
function duplicateIdError(id: RequestId): JSONRPCErrorResponse {
  const message = `Invalid Request: request id ${JSON.stringify(id)} is already in use by a request in flight on this session`;
  return { jsonrpc: '2.0', id, error: { code: ErrorCode.InvalidRequest, message } };
}

/** The request a `notifications/cancelled` names, if it is one. */
function cancelledRequestId(message: JSONRPCMessage): RequestId | undefined {
  if (!isJSONRPCNotification(message) || message.method !== 'notifications/cancelled') return undefined;
  const id = message.params?.['requestId'];
  return typeof id === 'string' || typeof id === 'number' ? id : undefined;
}

/**
 * The server end of one legacy session (2025-03-26 … 2025-11-25 Streamable HTTP). Routes every outgoing
 * message to exactly one stream ("MUST NOT broadcast the same message across multiple streams"):
 * a response goes to the POST that carried its request; a message with `relatedRequestId` goes to that
 * request's POST stream while it is open; everything else goes to the GET stream, queued (bounded)
 * while none is open. Client answers to server-initiated requests may arrive on any POST of the
 * session: they are all delivered to this one transport, so the engine matches them by id.
 */
export class LegacySessionTransport extends ServerTransportBase implements StreamableHttpServerTransport {
  readonly era = 'legacy' as const;
  readonly sessionId: string;
  /**
   * Who opened the session (see `sessionPrincipal`); undefined for an anonymous one. Every later request
   * must come from the same principal (issue #24, item 1).
   */
  readonly principal: string | undefined;
  /** Negotiated version: from `setProtocolVersion` or the `InitializeResult` this transport carried. */
  protocolVersion: string | undefined;
  /** Last time the client used the session (ms since epoch); the session store expires on it. */
  lastActivity = Date.now();
  /** Last time this process refreshed the session in a shared `sessionStore` (ms since epoch). */
  sharedTouchedAt = Date.now();
  #settings: SessionSettings;
  #tag: string;
  #nextStream = 0;
  #byRequest = new InFlightMap<RequestId, ResponseChannel>();
  /** Answers that left `#byRequest` but are still on their way to the event store, not yet written. */
  #answersBeingStored = 0;
  /** POST streams an event store can resume, by stream id; made by the first one (most sessions have none). */
  #resumable: InFlightMap<string, ResponseChannel> | undefined;
  /** The GET stream's channel; made by the first GET or the first message it must carry or hold. */
  #standaloneChannel: ResponseChannel | undefined;
  #initializeId: RequestId | undefined;
  /** Event ids the last resume of the GET stream replayed (shared mode: late live copies are dropped). */
  #replayed: ReadonlySet<string> | undefined;
  /** The `stream:<id>` subscription of the GET stream, while this process holds it (shared mode). */
  #listening: Promise<Unsubscribe | undefined> | undefined;

  /** Shared by the sessions of one handler (no closure per session). */
  readonly #onFinished: (session: LegacySessionTransport) => void;

  constructor(options: {
    sessionId: string;
    tag: string;
    settings: SessionSettings;
    principal: string | undefined;
    onFinished: (session: LegacySessionTransport) => void;
  }) {
    super();
    const { sessionId, tag, settings } = options;
    this.#onFinished = options.onFinished;
    this.sessionId = sessionId;
    this.principal = options.principal;
    this.#tag = tag;
    this.#settings = settings;
  }

  get #standalone(): ResponseChannel {
    this.#standaloneChannel ??= new ResponseChannel({
      streamId: `${this.#tag}.g`,
      requestIds: [],
      json: false,
      batch: false,
      headers: {},
      maxQueued: this.#settings.maxQueued,
    });
    return this.#standaloneChannel;
  }

  setProtocolVersion(version: string): void {
    this.protocolVersion = version;
  }

  /** True while a GET stream is attached (an idle session with one open is not idle). */
  get hasOpenStream(): boolean {
    return this.#standaloneChannel?.connected === true;
  }

  /**
   * True while the session has a GET stream open or a request in flight: such a session is never evicted
   * to make room or expired as idle (issue #24, item 2), since that would end a stream with no answer.
   */
  get busy(): boolean {
    return this.#byRequest.size > 0 || this.hasOpenStream;
  }

  /**
   * Requests of this session still waiting for their answer here, counting answers being stored: drain
   * must not end a POST stream while its result is between the engine and the event store.
   */
  get pendingRequests(): number {
    return this.#byRequest.size + this.#answersBeingStored;
  }

  /**
   * The handler drains: ends the GET stream with a `retry` field first ("it SHOULD send an SSE event
   * with a standard retry field before closing the connection"), so the client reconnects with
   * `Last-Event-ID` to another process, which replays what it missed from the shared event store.
   */
  handOver(): void {
    const channel = this.#standaloneChannel;
    if (channel?.connected === true) this.#closeConnection(channel);
  }

  /** Answers one POST of the session: 202 for notifications/responses, JSON or SSE for requests. */
  async handlePost(posted: readonly JSONRPCMessage[], context: PostContext): Promise<Response> {
    this.lastActivity = Date.now();
    const headers = { 'mcp-session-id': this.sessionId };
    const screened = this.#screen(posted, context);
    if (screened === undefined) {
      const duplicate = (posted[0] as { id: RequestId }).id;
      return jsonResponse(200, JSON.stringify(duplicateIdError(duplicate)), headers);
    }
    const { errors, requestIds } = screened;
    const messages =
      this.#settings.shared === undefined ? screened.messages : this.#routeReplies(screened.messages);
    const extra = this.#extraFor(context.extra, undefined);
    if (requestIds.length === 0) {
      for (const message of messages) this.deliver(message, extra);
      return errors.length === 0 ? accepted(headers) : jsonResponse(200, JSON.stringify(errors), headers);
    }
    for (const message of messages) {
      if (isJSONRPCRequest(message) && message.method === 'initialize') this.#initializeId = message.id;
    }
    const channel = new ResponseChannel({
      streamId: `${this.#tag}.${this.#nextStream++}`,
      requestIds,
      json: this.#settings.json,
      batch: context.batch,
      headers,
      maxQueued: 0,
    });
    for (const id of requestIds) this.#byRequest.set(id, channel);
    const requestExtra = this.#extraFor(context.extra, channel);
    if (channel.json) {
      for (const error of errors) channel.write(error);
      for (const message of messages) this.deliver(message, requestExtra);
      return channel.jsonResponse();
    }
    const writer = this.#writerFor(channel, 0);
    channel.attach(writer);
    for (const error of errors) void this.#emit(channel, error, undefined);
    const store = this.#settings.eventStore;
    if (store !== undefined && this.#primes(context.extra)) {
      this.#resumable ??= new InFlightMap();
      this.#resumable.set(channel.streamId, channel);
      try {
        writer.prime(await store.storeEvent(channel.streamId, undefined), this.#settings.retryMs);
      } catch (error) {
        this.reportError(error);
      }
    }
    for (const message of messages) this.deliver(message, requestExtra);
    return sseResponse(writer, headers);
  }

  /** Opens (or, with `Last-Event-ID`, resumes) a GET stream (2025-11-25 "Listening for Messages"). */
  async handleGet(lastEventId: string | null, extra: MessageExtraInfo): Promise<Response> {
    this.lastActivity = Date.now();
    const headers = { 'mcp-session-id': this.sessionId };
    const store = this.#settings.eventStore;
    if (lastEventId !== null && store !== undefined) return this.#resume(store, lastEventId, headers);
    if (this.#standalone.connected) {
      const message = 'Conflict: only one GET stream is allowed per session';
      return errorResponse(409, ErrorCode.InvalidRequest, message, { headers });
    }
    const writer = this.#writerFor(this.#standalone, this.#settings.keepAliveMs);
    if (this.#settings.shared !== undefined) await this.#listen();
    if (store !== undefined && this.#primes(extra)) {
      try {
        writer.prime(await store.storeEvent(this.#standalone.streamId, undefined), this.#settings.retryMs);
      } catch (error) {
        this.reportError(error);
      }
    }
    this.#standalone.attach(writer);
    return sseResponse(writer, headers);
  }

  /**
   * Not `async`: a message written at once settles with the shared `SENT` promise, which the engine
   * recognizes and does not watch (no promise and no reaction per response). Never throws: a closed
   * transport is a rejection.
   */
  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    try {
      const shared = this.#settings.shared;
      if (shared !== undefined && isJSONRPCRequest(message)) {
        // Unique across processes, so the client's answer finds its way back here (see session-bus).
        message = { ...message, id: globalRequestId(shared.instanceId, message.id) };
      }
      return this.#send(message, options) ?? SENT;
    } catch (error) {
      return Promise.reject(error);
    }
  }

  #send(message: JSONRPCMessage, options: TransportSendOptions | undefined): Promise<void> | undefined {
    this.assertOpen();
    if (isJSONRPCResponse(message)) {
      const id = message.id;
      const channel = id === undefined || id === null ? undefined : this.#byRequest.get(id);
      if (channel === undefined || id === undefined || id === null) {
        // The GET stream may not carry responses (2025-11-25 "Listening for Messages" 4), so a
        // response to a request this session never saw has nowhere to go.
        this.reportError(new Error(`No open request with id ${String(id)} for this response`));
        return;
      }
      this.#byRequest.delete(id);
      if (id === this.#initializeId) this.#sniffVersion(message);
      const emitted = this.#emit(channel, message, id);
      if (emitted === SENT) return emitted;
      this.#answersBeingStored++;
      return emitted.finally(() => {
        this.#answersBeingStored--;
      });
    }
    const related = options?.relatedRequestId;
    const channel = related === undefined ? undefined : this.#byRequest.get(related);
    if (channel?.json === true) {
      // A JSON reply carries only the response. A related request (elicitation, sampling) must still
      // reach the client, so it takes the GET stream; a related notification (progress, log) would
      // arrive there after the response it belongs to, so it is dropped, as the official SDK does.
      if (!isJSONRPCRequest(message)) return;
      return this.#toStandalone(message);
    }
    return channel === undefined ? this.#toStandalone(message) : this.#emit(channel, message, undefined);
  }

  #toStandalone(message: JSONRPCMessage): Promise<void> {
    if (this.#settings.shared !== undefined) {
      // Change notifications: every process raises its own, only the stream's holder sends them.
      if (!this.#standalone.connected && isBroadcast(message)) return SENT;
      // Always through the bus, even when the stream is held here: one path, so the stream carries
      // messages in the order they were stored, whichever process raised them.
      return this.#forward(message);
    }
    return this.#emit(this.#standalone, message, undefined);
  }

  /**
   * Shared mode: the message is stored, then published for the process holding the GET stream (this
   * one or another); a client that resumes anywhere gets it from the store. A store that can do both in
   * one step (`storeEventAndPublish`: one Redis round trip with `@x/redis`) does; otherwise two steps.
   * Either way one message at a time per stream (`tail`), so the stream carries them in stored order.
   */
  #forward(message: JSONRPCMessage): Promise<void> {
    const shared = this.#settings.shared as SessionBus;
    const channel = this.#standalone;
    const store = this.#settings.eventStore;
    const next = channel.tail.then(async () => {
      const topic = streamTopic(channel.streamId);
      if (store?.storeEventAndPublish !== undefined) {
        await store.storeEventAndPublish(channel.streamId, message, shared.bus, topic);
        return;
      }
      let eventId: string | undefined;
      if (store !== undefined) eventId = await store.storeEvent(channel.streamId, message);
      await shared.bus.publish(topic, { e: eventId, m: message });
    });
    channel.tail = next.catch((error: unknown) => this.reportError(error));
    return next;
  }

  /** Subscribes the GET stream to messages other processes raise for it (shared mode). */
  #listen(): Promise<unknown> {
    const shared = this.#settings.shared;
    if (shared === undefined) return SENT;
    this.#listening ??= shared.bus
      .subscribe(streamTopic(this.#standalone.streamId), (payload) => {
        if (!isStreamPayload(payload)) return;
        // Stored before the last replay read the store, published after it ended: already sent.
        if (payload.e !== undefined && this.#replayed?.has(payload.e) === true) return;
        const unencodable = this.#standalone.write(payload.m, payload.e);
        if (unencodable !== undefined) this.reportError(unencodable);
      })
      .catch((error: unknown) => {
        this.reportError(error);
        this.#listening = undefined;
        return undefined;
      });
    return this.#listening;
  }

  /** Ends the subscription once no GET stream of this session is attached here any more. */
  #unlisten(): void {
    const listening = this.#listening;
    if (listening === undefined || this.#standaloneChannel?.connected === true) return;
    this.#listening = undefined;
    void listening.then((unsubscribe) => unsubscribe?.()).catch((error: unknown) => this.reportError(error));
  }

  /**
   * Shared mode: answers to server→client requests carry the asking process's id (see session-bus).
   * Ours are restored to the id our engine knows; another process's go to it over the bus.
   */
  #routeReplies(messages: readonly JSONRPCMessage[]): readonly JSONRPCMessage[] {
    let routed: JSONRPCMessage[] | undefined;
    for (let i = 0; i < messages.length; i++) {
      const message = messages[i] as JSONRPCMessage;
      if (!isJSONRPCResponse(message)) continue;
      const origin = localRequestId(message.id);
      if (origin === undefined) continue;
      routed ??= [...messages];
      const shared = this.#settings.shared as SessionBus;
      if (origin.instanceId === shared.instanceId) {
        routed[i] = { ...message, id: origin.id } as JSONRPCMessage;
      } else {
        routed[i] = undefined as unknown as JSONRPCMessage;
        shared.bus
          .publish(repliesTopic(origin.instanceId), { s: this.sessionId, m: message })
          .catch((error: unknown) => this.reportError(error));
      }
    }
    return routed === undefined ? messages : routed.filter((message) => message !== undefined);
  }

  /** A client's answer another process received for a request this process sent (shared mode). */
  deliverReply(message: JSONRPCMessage): void {
    const origin = localRequestId((message as { id?: unknown }).id);
    if (origin === undefined || this.closed) return;
    this.deliver({ ...message, id: origin.id } as JSONRPCMessage);
  }

  /**
   * Reads a POST's messages before delivery: acts on cancellations, and refuses requests whose id is
   * already in flight on the session — a second request with such an id would take over the first one's
   * routing (JSON-RPC 2.0: ids identify requests), so it gets -32600 and the original keeps its stream.
   * Undefined for a lone duplicate (answered on its own POST); in a batch, each duplicate is left out and
   * answered among the batch's errors.
   */
  #screen(
    posted: readonly JSONRPCMessage[],
    context: PostContext,
  ):
    | {
        messages: readonly JSONRPCMessage[];
        errors: readonly JSONRPCErrorResponse[];
        requestIds: RequestId[];
      }
    | undefined {
    const requestIds: RequestId[] = [];
    let duplicates: Set<JSONRPCMessage> | undefined;
    for (const message of posted) {
      if (isJSONRPCRequest(message)) {
        const id = message.id;
        if (this.#byRequest.has(id) || (context.batch && requestIds.includes(id))) {
          if (!context.batch) return undefined;
          duplicates ??= new Set();
          duplicates.add(message);
        } else {
          requestIds.push(id);
        }
        continue;
      }
      const cancelled = cancelledRequestId(message);
      if (cancelled !== undefined) this.#cancelled(cancelled);
    }
    if (duplicates === undefined) return { messages: posted, errors: context.errors, requestIds };
    const refused = duplicates;
    const errors = [...context.errors];
    for (const message of refused) errors.push(duplicateIdError((message as { id: RequestId }).id));
    return { messages: posted.filter((message) => !refused.has(message)), errors, requestIds };
  }

  /**
   * The client cancelled a request (`notifications/cancelled`): the server will not answer it ("Receivers
   * of a cancellation notification SHOULD ... Not send a response for the cancelled request"), so its
   * entry goes and its POST stream ends now, instead of living as long as the session (issue #24, item 8).
   * The notification itself still reaches the server, which stops the work.
   */
  #cancelled(id: RequestId): void {
    const channel = this.#byRequest.get(id);
    if (channel === undefined) return;
    this.#byRequest.delete(id);
    if (channel.settle(id)) this.#resumable?.delete(channel.streamId);
  }

  protected teardown(): void {
    for (const channel of new Set(this.#byRequest.values())) channel.finish();
    if (this.#resumable !== undefined) for (const channel of this.#resumable.values()) channel.finish();
    this.#standaloneChannel?.finish();
    this.#standaloneChannel?.writer?.close();
    this.#byRequest.clear();
    this.#resumable = undefined;
    if (this.#listening !== undefined) {
      const listening = this.#listening;
      this.#listening = undefined;
      void listening.then((unsubscribe) => unsubscribe?.()).catch(() => undefined);
    }
    this.#onFinished(this);
  }

  #emit(channel: ResponseChannel, message: JSONRPCMessage, settles: RequestId | undefined): Promise<void> {
    const store = this.#settings.eventStore;
    if (store === undefined || channel.json) {
      const unencodable = channel.write(message);
      if (unencodable !== undefined) this.reportError(unencodable);
      if (settles !== undefined) channel.settle(settles);
      return SENT;
    }
    const next = channel.tail.then(async () => {
      let eventId: string | undefined;
      try {
        eventId = await store.storeEvent(channel.streamId, message);
      } catch (error) {
        // The message still goes out (without an event id it just cannot be replayed): a failed store
        // write must not leave the request that waits for it unanswered.
        this.reportError(error);
      }
      const unencodable = channel.write(message, eventId);
      if (unencodable !== undefined) this.reportError(unencodable);
      if (settles !== undefined && channel.settle(settles)) this.#resumable?.delete(channel.streamId);
    });
    channel.tail = next.catch((error: unknown) => this.reportError(error));
    return next;
  }

  async #resume(store: EventStore, lastEventId: string, headers: Record<string, string>): Promise<Response> {
    let target: ResponseChannel | undefined;
    const writer: SseWriter = new SseWriter({
      keepAliveMs: this.#settings.keepAliveMs,
      maxBufferedBytes: this.#settings.maxBufferedBytes,
      onDisconnect: (error) => {
        // Dropped for falling behind: what it held is lost to this connection; say so.
        if (error !== undefined) this.reportError(error);
        target?.detach(writer);
        if (target === this.#standaloneChannel) this.#unlisten();
      },
    });
    const replayed = new Set<string>();
    // Live frames of the resumed stream are held back during the replay (see ResponseChannel); when the
    // store cannot tell the stream up front, every stream of the session holds its frames meanwhile.
    let known: string | undefined;
    try {
      known = await store.getStreamIdForEventId?.(lastEventId);
    } catch (error) {
      writer.close();
      return storeUnavailable((e) => this.reportError(e), error, 'event store');
    }
    const candidates =
      known === undefined ? [this.#standalone, ...(this.#resumable?.values() ?? [])] : [this.#channel(known)];
    for (const channel of candidates) channel?.beginReplay();
    // Shared mode: live messages from other processes are held with the rest during the replay.
    if (this.#settings.shared !== undefined && candidates.includes(this.#standalone)) await this.#listen();
    let streamId: string | undefined;
    try {
      streamId = await store.replayEventsAfter(lastEventId, {
        send: (eventId, message) => {
          replayed.add(eventId);
          // Replayed as first sent: a response JSON could not encode went out as its -32603 error.
          writer.event(encodedText(encodeMessage(message)), eventId);
        },
      });
    } catch (error) {
      // Not "unknown Last-Event-ID" (400 makes a client give up resuming): the store could not tell.
      for (const channel of candidates) channel?.abortReplay();
      writer.close();
      return storeUnavailable((e) => this.reportError(e), error, 'event store');
    }
    // Never replay another session's stream ("MUST NOT replay messages that would have been delivered
    // on a different stream"): a stream id outside this session's prefix is refused.
    const ours = streamId?.startsWith(`${this.#tag}.`) === true;
    target = ours && streamId !== undefined ? this.#channel(streamId) : undefined;
    for (const channel of candidates) if (channel !== undefined && channel !== target) channel.abortReplay();
    if (!ours) {
      writer.close();
      return badRequest('unknown or expired Last-Event-ID', headers);
    }
    if (target === undefined) {
      // That POST stream already carried all its responses: the replay was everything left.
      writer.close();
      return sseResponse(writer, headers);
    }
    target.endReplay(writer, replayed);
    if (this.#settings.shared !== undefined && target === this.#standaloneChannel) this.#replayed = replayed;
    return sseResponse(writer, headers);
  }

  #channel(streamId: string): ResponseChannel | undefined {
    return streamId === this.#standalone.streamId ? this.#standalone : this.#resumable?.get(streamId);
  }

  #writerFor(channel: ResponseChannel, keepAliveMs: number): SseWriter {
    const writer: SseWriter = new SseWriter({
      keepAliveMs,
      maxBufferedBytes: this.#settings.maxBufferedBytes,
      onDisconnect: (error) => {
        // Dropped for falling behind: what it held is lost to this connection; say so.
        if (error !== undefined) this.reportError(error);
        channel.detach(writer);
        if (channel === this.#standaloneChannel) this.#unlisten();
      },
    });
    return writer;
  }

  #primes(extra: MessageExtraInfo): boolean {
    const header = extra.requestInfo?.headers['mcp-protocol-version'];
    const version = (typeof header === 'string' ? header : undefined) ?? this.protocolVersion ?? '2025-03-26';
    return version >= PRIMING_SINCE;
  }

  #extraFor(base: MessageExtraInfo, channel: ResponseChannel | undefined): MessageExtraInfo {
    const extra: MessageExtraInfo = Object.assign({}, base); // not a spread: fields may be added below
    if (this.#settings.eventStore !== undefined) {
      // SEP-1699 polling: the server may end a connection and let the client resume with Last-Event-ID.
      if (channel !== undefined && !channel.json) extra.closeSSEStream = () => this.#closeConnection(channel);
      extra.closeStandaloneSSEStream = () => this.#closeConnection(this.#standalone);
    }
    return extra;
  }

  #closeConnection(channel: ResponseChannel): void {
    const writer = channel.writer;
    if (writer === undefined) return;
    // "it SHOULD send an SSE event with a standard retry field before closing the connection".
    writer.retry(this.#settings.retryMs);
    channel.detach(writer);
    writer.close();
  }

  #sniffVersion(message: JSONRPCMessage): void {
    if (!isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) return;
    const version = message.result['protocolVersion'];
    if (typeof version === 'string' && this.protocolVersion === undefined) this.protocolVersion = version;
  }
}
