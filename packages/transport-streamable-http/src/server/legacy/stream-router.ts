import {
  ErrorCode,
  isJSONRPCNotification,
  isJSONRPCRequest,
  type JSONRPCErrorResponse,
  type JSONRPCMessage,
  type RequestId,
} from '@x/protocol/core';
import { InFlightMap } from '@x/protocol/transport';
import { ResponseChannel } from '../response-channel.js';

/** Options for {@link StreamRouter}. */
export interface StreamRouterOptions {
  /** The session's stream tag: every stream id of the session starts with `<tag>.`. */
  tag: string;
  /** Answer requests with one `application/json` reply instead of an SSE stream (`enableJsonResponse`). */
  json: boolean;
  /** Messages the GET stream holds while no connection is attached (`maxQueuedMessages`). */
  maxQueued: number;
}

/** A POST's messages once screened: what to deliver, what to answer at once, which requests it opens. */
export interface ScreenedPost {
  messages: readonly JSONRPCMessage[];
  errors: readonly JSONRPCErrorResponse[];
  requestIds: RequestId[];
}

/** The -32600 answer to a request whose id is already in flight on the session (issue #24, item 10). */
export function duplicateIdError(id: RequestId): JSONRPCErrorResponse {
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
 * The streams of one legacy session and which one each outgoing message takes. Every message goes to
 * exactly one stream ("MUST NOT broadcast the same message across multiple streams", 2025-11-25
 * "Multiple Connections"): a response goes to the POST that carried its request; a message with
 * `relatedRequestId` goes to that request's POST stream while it is open; everything else goes to the
 * GET stream (the standalone channel), which holds a bounded queue while no connection is attached.
 * Knows nothing of event stores or message buses: it hands out `ResponseChannel`s, the session writes.
 *
 * @example
 * ```ts
 * const router = new StreamRouter({ tag: 'a1b2', json: false, maxQueued: 1_000 });
 * const channel = router.open([7], false, {});
 * router.route(progress, 7); // channel
 * router.takeResponseChannel(7); // channel, and 7 is no longer in flight
 * ```
 */
export class StreamRouter {
  readonly #options: StreamRouterOptions;
  #nextStream = 0;
  /** The open POST stream of each request in flight. */
  readonly #byRequest = new InFlightMap<RequestId, ResponseChannel>();
  /** POST streams an event store can resume, by stream id; made by the first one (most sessions have none). */
  #resumable: InFlightMap<string, ResponseChannel> | undefined;
  /** The GET stream's channel; made by the first GET or the first message it must carry or hold. */
  #standalone: ResponseChannel | undefined;

  constructor(options: StreamRouterOptions) {
    this.#options = options;
  }

  /** The GET stream's channel (made on first use). */
  get standalone(): ResponseChannel {
    this.#standalone ??= new ResponseChannel({
      streamId: `${this.#options.tag}.g`,
      requestIds: [],
      json: false,
      batch: false,
      headers: {},
      maxQueued: this.#options.maxQueued,
    });
    return this.#standalone;
  }

  /** The GET stream's channel if anything made it yet (reading it here makes none). */
  get standaloneIfMade(): ResponseChannel | undefined {
    return this.#standalone;
  }

  /** Whether `channel` is the GET stream's channel (both undefined counts: no GET stream was ever made). */
  isStandalone(channel: ResponseChannel | undefined): boolean {
    return channel === this.#standalone;
  }

  /** True while a GET stream connection is attached. */
  get hasOpenStream(): boolean {
    return this.#standalone?.connected === true;
  }

  /** Requests of the session waiting for their response. */
  get inFlight(): number {
    return this.#byRequest.size;
  }

  /**
   * Reads a POST's messages before delivery: acts on cancellations, and refuses requests whose id is
   * already in flight on the session — a second request with such an id would take over the first one's
   * routing (JSON-RPC 2.0: ids identify requests), so it gets -32600 and the original keeps its stream.
   * Undefined for a lone duplicate (answered on its own POST); in a batch, each duplicate is left out and
   * answered among the batch's `errors`.
   */
  screen(
    posted: readonly JSONRPCMessage[],
    batch: boolean,
    errors: readonly JSONRPCErrorResponse[],
  ): ScreenedPost | undefined {
    const requestIds: RequestId[] = [];
    let duplicates: Set<JSONRPCMessage> | undefined;
    for (const message of posted) {
      if (isJSONRPCRequest(message)) {
        const id = message.id;
        if (this.#byRequest.has(id) || (batch && requestIds.includes(id))) {
          if (!batch) return undefined;
          duplicates ??= new Set();
          duplicates.add(message);
        } else {
          requestIds.push(id);
        }
        continue;
      }
      const cancelled = cancelledRequestId(message);
      if (cancelled !== undefined) this.cancel(cancelled);
    }
    if (duplicates === undefined) return { messages: posted, errors, requestIds };
    const refused = duplicates;
    const allErrors = [...errors];
    for (const message of refused) allErrors.push(duplicateIdError((message as { id: RequestId }).id));
    return { messages: posted.filter((message) => !refused.has(message)), errors: allErrors, requestIds };
  }

  /** Opens the stream that answers the requests of one POST (`requestIds`, at least one). */
  open(requestIds: readonly RequestId[], batch: boolean, headers: Record<string, string>): ResponseChannel {
    const channel = new ResponseChannel({
      streamId: `${this.#options.tag}.${this.#nextStream++}`,
      requestIds,
      json: this.#options.json,
      batch,
      headers,
      maxQueued: 0,
    });
    for (const id of requestIds) this.#byRequest.set(id, channel);
    return channel;
  }

  /** Lets a client resume `channel` with `Last-Event-ID` while it has requests to answer. */
  markResumable(channel: ResponseChannel): void {
    this.#resumable ??= new InFlightMap();
    this.#resumable.set(channel.streamId, channel);
  }

  /**
   * The stream of the request a response answers, which is then no longer in flight; undefined for a
   * request the session never saw (the GET stream may not carry responses, 2025-11-25 "Listening for
   * Messages" 4, so such a response has nowhere to go).
   */
  takeResponseChannel(id: RequestId | null | undefined): ResponseChannel | undefined {
    if (id === undefined || id === null) return undefined;
    const channel = this.#byRequest.get(id);
    if (channel !== undefined) this.#byRequest.delete(id);
    return channel;
  }

  /**
   * The stream of a request or notification the server sends: its related request's POST stream while
   * that is open, else the GET stream; undefined when it is dropped. A JSON reply carries only the
   * response: a related request (elicitation, sampling) must still reach the client, so it takes the GET
   * stream; a related notification (progress, log) would arrive there after the response it belongs to,
   * so it is dropped, as the official SDK does.
   */
  route(message: JSONRPCMessage, relatedRequestId: RequestId | undefined): ResponseChannel | undefined {
    const channel = relatedRequestId === undefined ? undefined : this.#byRequest.get(relatedRequestId);
    if (channel === undefined) return this.standalone;
    if (!channel.json) return channel;
    return isJSONRPCRequest(message) ? this.standalone : undefined;
  }

  /** Marks request `id` answered on `channel`; a POST stream with every answer written ends. */
  settle(channel: ResponseChannel, id: RequestId): void {
    if (channel.settle(id)) this.#resumable?.delete(channel.streamId);
  }

  /**
   * The client cancelled a request (`notifications/cancelled`): the server will not answer it ("Receivers
   * of a cancellation notification SHOULD ... Not send a response for the cancelled request"), so its
   * entry goes and its POST stream ends now, instead of living as long as the session (issue #24, item 8).
   */
  cancel(id: RequestId): void {
    const channel = this.#byRequest.get(id);
    if (channel === undefined) return;
    this.#byRequest.delete(id);
    this.settle(channel, id);
  }

  /** Whether `streamId` is one of this session's ("MUST NOT replay messages ... on a different stream"). */
  owns(streamId: string): boolean {
    return streamId.startsWith(`${this.#options.tag}.`);
  }

  /** The session's stream `streamId`, if it can still carry messages (the GET stream, or a resumable POST). */
  channel(streamId: string): ResponseChannel | undefined {
    return streamId === this.standalone.streamId ? this.standalone : this.#resumable?.get(streamId);
  }

  /** Every stream a `Last-Event-ID` could resume: the GET stream and the resumable POST streams. */
  resumable(): ResponseChannel[] {
    return [this.standalone, ...(this.#resumable?.values() ?? [])];
  }

  /** Ends every stream (the session closes): pending JSON replies go out, SSE connections end. */
  finishAll(): void {
    for (const channel of new Set(this.#byRequest.values())) channel.finish();
    if (this.#resumable !== undefined) for (const channel of this.#resumable.values()) channel.finish();
    this.#standalone?.finish();
    this.#standalone?.writer?.close();
    this.#byRequest.clear();
    this.#resumable = undefined;
  }
}
