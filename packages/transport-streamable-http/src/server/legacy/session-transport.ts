import {
  ErrorCode,
  type EventStore,
  isJSONRPCErrorResponse,
  isJSONRPCRequest,
  isJSONRPCResponse,
  isJSONRPCResultResponse,
  type JSONRPCErrorResponse,
  type JSONRPCMessage,
  type MessageExtraInfo,
  type RequestId,
  SENT,
  type TransportSendOptions,
} from '@x/protocol/core';
import { accepted, badRequest, errorResponse, jsonResponse, sseResponse } from '../http-responses.js';
import type { StreamableHttpServerTransport } from '../options.js';
import type { ResponseChannel } from '../response-channel.js';
import { ServerTransportBase } from '../server-transport-base.js';
import { SseWriter } from '../sse-writer.js';
import { storeUnavailable } from '../store-unavailable.js';
import { BusRelay } from './bus-relay.js';
import { EventReplay } from './event-replay.js';
import { localRequestId, type SessionBus } from './session-bus.js';
import { duplicateIdError, StreamRouter } from './stream-router.js';

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

/**
 * The server end of one legacy session (2025-03-26 … 2025-11-25 Streamable HTTP), composed of three
 * parts that each read alone: the {@link StreamRouter} decides which stream each message takes (exactly
 * one: "MUST NOT broadcast the same message across multiple streams"), the {@link EventReplay} stores
 * what the streams carry and resumes them with `Last-Event-ID` (with an `eventStore`), and the
 * {@link BusRelay} carries the GET stream and the answers to server→client requests between the
 * processes serving the session (with a `messageBus`). This class answers the session's HTTP requests
 * and is the `Transport` the server connects to. Client answers to server-initiated requests may arrive
 * on any POST of the session: they are all delivered to this one transport, so the engine matches them
 * by id.
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
  readonly #settings: SessionSettings;
  readonly #router: StreamRouter;
  /** With an `eventStore`: stored streams, resumable with `Last-Event-ID`. */
  readonly #replay: EventReplay | undefined;
  /** With a `messageBus`: the session shared between processes. */
  readonly #relay: BusRelay | undefined;
  #initializeId: RequestId | undefined;

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
    this.#settings = settings;
    const router = new StreamRouter({ tag, json: settings.json, maxQueued: settings.maxQueued });
    this.#router = router;
    const { eventStore, shared } = settings;
    if (eventStore === undefined && shared === undefined) return;
    const reportError = (error: unknown): void => this.reportError(error);
    this.#relay =
      shared === undefined ? undefined : new BusRelay({ shared, sessionId, eventStore, router, reportError });
    this.#replay =
      eventStore === undefined
        ? undefined
        : new EventReplay({
            eventStore,
            router,
            retryMs: settings.retryMs,
            keepAliveMs: settings.keepAliveMs,
            maxBufferedBytes: settings.maxBufferedBytes,
            relay: this.#relay,
            reportError,
          });
  }

  setProtocolVersion(version: string): void {
    this.protocolVersion = version;
  }

  /** True while a GET stream is attached (an idle session with one open is not idle). */
  get hasOpenStream(): boolean {
    return this.#router.hasOpenStream;
  }

  /**
   * True while the session has a GET stream open or a request in flight: such a session is never evicted
   * to make room or expired as idle (issue #24, item 2), since that would end a stream with no answer.
   */
  get busy(): boolean {
    return this.#router.inFlight > 0 || this.#router.hasOpenStream;
  }

  /**
   * Requests of this session still waiting for their answer here, counting answers being stored: drain
   * must not end a POST stream while its result is between the engine and the event store.
   */
  get pendingRequests(): number {
    return this.#router.inFlight + (this.#replay?.answersBeingStored ?? 0);
  }

  /**
   * The handler drains: ends the GET stream with a `retry` field first ("it SHOULD send an SSE event
   * with a standard retry field before closing the connection"), so the client reconnects with
   * `Last-Event-ID` to another process, which replays what it missed from the shared event store.
   */
  handOver(): void {
    const channel = this.#router.standaloneIfMade;
    if (channel?.connected === true) this.#closeConnection(channel);
  }

  /** Answers one POST of the session: 202 for notifications/responses, JSON or SSE for requests. */
  async handlePost(posted: readonly JSONRPCMessage[], context: PostContext): Promise<Response> {
    this.lastActivity = Date.now();
    const headers = { 'mcp-session-id': this.sessionId };
    const router = this.#router;
    const screened = router.screen(posted, context.batch, context.errors);
    if (screened === undefined) {
      const duplicate = (posted[0] as { id: RequestId }).id;
      return jsonResponse(200, JSON.stringify(duplicateIdError(duplicate)), headers);
    }
    const { errors, requestIds } = screened;
    const relay = this.#relay;
    const messages = relay === undefined ? screened.messages : relay.routeReplies(screened.messages);
    const extra = this.#extraFor(context.extra, undefined);
    if (requestIds.length === 0) {
      for (const message of messages) this.deliver(message, extra);
      return errors.length === 0 ? accepted(headers) : jsonResponse(200, JSON.stringify(errors), headers);
    }
    for (const message of messages) {
      if (isJSONRPCRequest(message) && message.method === 'initialize') this.#initializeId = message.id;
    }
    const channel = router.open(requestIds, context.batch, headers);
    const requestExtra = this.#extraFor(context.extra, channel);
    if (channel.json) {
      for (const error of errors) channel.write(error);
      for (const message of messages) this.deliver(message, requestExtra);
      return channel.jsonResponse();
    }
    const writer = this.#writerFor(channel, 0);
    channel.attach(writer);
    for (const error of errors) void this.#emit(channel, error, undefined);
    const replay = this.#replay;
    if (replay !== undefined && this.#primes(context.extra)) {
      router.markResumable(channel);
      await replay.prime(writer, channel.streamId);
    }
    for (const message of messages) this.deliver(message, requestExtra);
    return sseResponse(writer, headers);
  }

  /** Opens (or, with `Last-Event-ID`, resumes) a GET stream (2025-11-25 "Listening for Messages"). */
  async handleGet(lastEventId: string | null, extra: MessageExtraInfo): Promise<Response> {
    this.lastActivity = Date.now();
    const headers = { 'mcp-session-id': this.sessionId };
    const replay = this.#replay;
    if (lastEventId !== null && replay !== undefined) return this.#resume(replay, lastEventId, headers);
    const standalone = this.#router.standalone;
    if (standalone.connected) {
      const message = 'Conflict: only one GET stream is allowed per session';
      return errorResponse(409, ErrorCode.InvalidRequest, message, { headers });
    }
    const writer = this.#writerFor(standalone, this.#settings.keepAliveMs);
    if (this.#relay !== undefined) await this.#relay.listen();
    if (replay !== undefined && this.#primes(extra)) await replay.prime(writer, standalone.streamId);
    standalone.attach(writer);
    return sseResponse(writer, headers);
  }

  /**
   * Not `async`: a message written at once settles with the shared `SENT` promise, which the engine
   * recognizes and does not watch (no promise and no reaction per response). Never throws: a closed
   * transport is a rejection.
   */
  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    try {
      // Shared mode: request ids unique across processes, so the client's answer finds its way back here.
      const outgoing = this.#relay === undefined ? message : this.#relay.outgoing(message);
      return this.#send(outgoing, options) ?? SENT;
    } catch (error) {
      return Promise.reject(error);
    }
  }

  #send(message: JSONRPCMessage, options: TransportSendOptions | undefined): Promise<void> | undefined {
    this.assertOpen();
    const router = this.#router;
    if (isJSONRPCResponse(message)) {
      const id = message.id;
      const channel = router.takeResponseChannel(id);
      if (channel === undefined || id === undefined || id === null) {
        this.reportError(new Error(`No open request with id ${String(id)} for this response`));
        return;
      }
      if (id === this.#initializeId) this.#sniffVersion(message);
      return this.#emit(channel, message, id);
    }
    const channel = router.route(message, options?.relatedRequestId);
    if (channel === undefined) return;
    if (this.#relay !== undefined && router.isStandalone(channel))
      return this.#relay.publishToStream(message);
    return this.#emit(channel, message, undefined);
  }

  /** A client's answer another process received for a request this process sent (shared mode). */
  deliverReply(message: JSONRPCMessage): void {
    const origin = localRequestId((message as { id?: unknown }).id);
    if (origin === undefined || this.closed) return;
    this.deliver({ ...message, id: origin.id } as JSONRPCMessage);
  }

  protected teardown(): void {
    this.#router.finishAll();
    this.#relay?.stop();
    this.#onFinished(this);
  }

  /** Writes `message` on `channel`: at once, or (with an event store, on SSE) once stored. */
  #emit(channel: ResponseChannel, message: JSONRPCMessage, settles: RequestId | undefined): Promise<void> {
    const replay = this.#replay;
    if (replay !== undefined && !channel.json) return replay.emit(channel, message, settles);
    const unencodable = channel.write(message);
    if (unencodable !== undefined) this.reportError(unencodable);
    if (settles !== undefined) this.#router.settle(channel, settles);
    return SENT;
  }

  async #resume(
    replay: EventReplay,
    lastEventId: string,
    headers: Record<string, string>,
  ): Promise<Response> {
    const outcome = await replay.resume(lastEventId);
    switch (outcome.kind) {
      case 'store-failed':
        // Not "unknown Last-Event-ID" (400 makes a client give up resuming): the store could not tell.
        return storeUnavailable((error) => this.reportError(error), outcome.error, 'event store');
      case 'unknown':
        return badRequest('unknown or expired Last-Event-ID', headers);
      default:
        return sseResponse(outcome.writer, headers);
    }
  }

  #writerFor(channel: ResponseChannel, keepAliveMs: number): SseWriter {
    const writer: SseWriter = new SseWriter({
      keepAliveMs,
      maxBufferedBytes: this.#settings.maxBufferedBytes,
      onDisconnect: (error) => {
        // Dropped for falling behind: what it held is lost to this connection; say so.
        if (error !== undefined) this.reportError(error);
        channel.detach(writer);
        if (this.#router.isStandalone(channel)) this.#relay?.unlisten();
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
    if (this.#replay !== undefined) {
      // SEP-1699 polling: the server may end a connection and let the client resume with Last-Event-ID.
      if (channel !== undefined && !channel.json) extra.closeSSEStream = () => this.#closeConnection(channel);
      extra.closeStandaloneSSEStream = () => this.#closeConnection(this.#router.standalone);
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
