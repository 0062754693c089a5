import {
  type Era,
  ErrorCode,
  isJSONRPCErrorResponse,
  isJSONRPCRequest,
  isJSONRPCResponse,
  type JSONRPCErrorResponse,
  type JSONRPCMessage,
  type MessageExtraInfo,
  McpError,
  type RequestId,
  type TransportSendOptions,
} from '@x/protocol/core';
import { encodeMessage } from './encode-message.js';
import { accepted, jsonResponse, sseResponse } from './http-responses.js';
import type { HttpIncoming } from '@x/protocol/http';
import type { StreamableHttpServerTransport } from './options.js';
import { ResponseChannel } from './response-channel.js';
import { ServerTransportBase } from './server-transport-base.js';
import { SseWriter } from './sse-writer.js';

/**
 * HTTP status of a modern JSON reply (2026-07-28): 404 for an unknown method (transports, "Protocol
 * Version Header"); 400 for a header mismatch, a missing client capability and an unsupported version
 * (schema: HeaderMismatchError, MissingRequiredClientCapabilityError, UnsupportedProtocolVersionError
 * "For HTTP, the response status code MUST be 400"); 200 otherwise.
 */
function statusOf(message: JSONRPCMessage): number {
  if (!isJSONRPCErrorResponse(message)) return 200;
  switch (message.error.code) {
    case ErrorCode.MethodNotFound:
      return 404;
    case ErrorCode.HeaderMismatch:
    case ErrorCode.MissingRequiredClientCapability:
    case ErrorCode.UnsupportedProtocolVersion:
      return 400;
    default:
      return 200;
  }
}

/** Options for {@link RequestTransport}. */
export interface RequestTransportOptions {
  era: Era;
  json: boolean;
  /** For a stateless legacy request: the version it declared (see `Transport.statelessLegacyVersion`). */
  statelessLegacyVersion?: string | undefined;
  /** Keep-alive interval for long-lived streams (`subscriptions/listen`). */
  keepAliveMs: number;
  /** Bytes an SSE reader may fall behind before its stream is dropped (`maxBufferedBytes`). */
  maxBufferedBytes: number;
  /** Called once when the transport closes, so the handler can forget it. */
  onFinished: () => void;
}

/** What one POST brings to its transport. */
export interface RequestExchange {
  messages: readonly JSONRPCMessage[];
  extra: MessageExtraInfo;
  batch: boolean;
  /** Answers to the invalid elements of a batch, sent with the responses to its requests. */
  errors?: readonly JSONRPCErrorResponse[] | undefined;
  /** Reply with SSE and keep-alives regardless of `json` (a `subscriptions/listen` stream). */
  longLived: boolean;
  /** The HTTP request: whether, and when, its client went away. */
  client: Pick<HttpIncoming, 'gone' | 'onDisconnect'>;
}

/**
 * The server end for exactly one POST: every modern request (2026-07-28 is stateless) and every POST in
 * legacy stateless mode. It closes itself once the response is out.
 *
 * Modern cancellation (2026-07-28 streamable-http, "Cancellation": "Closing the SSE response stream MUST
 * be treated by the server as cancellation of that request"): when the client goes away before the
 * response, the transport aborts `extra.signal` and delivers a synthesized `notifications/cancelled`
 * for the request to `onmessage` (so any engine that implements cancellation by notification, like the
 * official SDK's, stops the handler), then closes. Anything sent after that is refused.
 * In legacy stateless mode a disconnect is not a cancellation ("Disconnection SHOULD NOT be interpreted
 * as the client cancelling its request"), so nothing is synthesized there.
 */
export class RequestTransport extends ServerTransportBase implements StreamableHttpServerTransport {
  readonly era: Era;
  readonly sessionId = undefined;
  readonly statelessLegacyVersion: string | undefined;
  #options: RequestTransportOptions;
  #channel: ResponseChannel | undefined;
  #pending: RequestId[] = [];
  /** Behind `extra.signal` of a modern request; created when something reads it. */
  #abort: AbortController | undefined;
  #gone = false;
  #closeOnStart = false;
  #reply: ((response: Response) => void) | undefined;
  #started = false;

  constructor(options: RequestTransportOptions) {
    super();
    this.era = options.era;
    this.statelessLegacyVersion = options.statelessLegacyVersion;
    this.#options = options;
  }

  override start(): Promise<void> {
    const started = super.start();
    this.#started = true;
    if (this.#closeOnStart) queueMicrotask(() => void this.close());
    return started;
  }

  /** Delivers the POST's messages and produces its HTTP reply. */
  async handle(exchange: RequestExchange): Promise<Response> {
    const { messages, batch, longLived } = exchange;
    for (const message of messages) if (isJSONRPCRequest(message)) this.#pending.push(message.id);
    const errors = exchange.errors ?? [];
    if (this.#pending.length === 0) {
      for (const message of messages) this.deliver(message, exchange.extra);
      this.#closeWhenDelivered();
      return errors.length === 0 ? accepted() : jsonResponse(200, JSON.stringify(errors));
    }
    const deferred = this.era === 'modern' && !longLived;
    const channel = new ResponseChannel({
      streamId: 'r',
      requestIds: this.#pending,
      json: this.#options.json && !longLived && !deferred,
      batch,
      headers: {},
      maxQueued: 0,
    });
    this.#channel = channel;
    if (exchange.client.gone) return accepted();
    exchange.client.onDisconnect(() => this.#disconnected());
    const extra: MessageExtraInfo =
      this.era === 'modern' ? new ModernExtra(exchange.extra, this) : exchange.extra;
    if (deferred) {
      // A modern reply is chosen by its first message: the final response alone goes out as JSON (with
      // 404 for an unknown method, 2026-07-28 "Protocol Version Header"); a notification first opens SSE.
      const reply = new Promise<Response>((resolve) => (this.#reply = resolve));
      for (const message of messages) this.deliver(message, extra);
      return reply;
    }
    if (channel.json) {
      for (const error of errors) channel.write(error);
      for (const message of messages) this.deliver(message, extra);
      return channel.jsonResponse();
    }
    channel.attach(this.#writer(longLived));
    for (const error of errors) channel.write(error);
    for (const message of messages) this.deliver(message, extra);
    return channel.writer === undefined ? accepted() : sseResponse(channel.writer);
  }

  async send(message: JSONRPCMessage, _options?: TransportSendOptions): Promise<void> {
    this.assertOpen();
    if (this.era === 'modern' && isJSONRPCRequest(message)) {
      // 2026-07-28 streamable-http, "Receiving Messages": "The server MUST NOT send independent JSON-RPC
      // requests on this stream" — server-to-client input goes through InputRequiredResult (MRTR).
      throw new McpError(
        ErrorCode.InvalidRequest,
        'Server-to-client requests are not part of modern Streamable HTTP; return an input_required result',
      );
    }
    const channel = this.#channel;
    if (channel === undefined) return;
    const reply = this.#reply;
    const isResponse = isJSONRPCResponse(message);
    if (reply !== undefined) {
      if (isResponse) {
        this.#reply = undefined;
        // A response JSON cannot encode still ends the request: as a -32603 error for its id.
        const encoded = encodeMessage(message);
        if (typeof encoded === 'string') reply(jsonResponse(statusOf(message), encoded));
        else {
          reply(jsonResponse(200, encoded.text));
          this.reportError(encoded.error);
        }
        channel.finish();
        await this.close();
        return;
      }
      if (this.#options.json) return;
      this.#reply = undefined;
      channel.attach(this.#writer(false));
      reply(channel.writer === undefined ? accepted() : sseResponse(channel.writer));
    }
    const unencodable = channel.write(message);
    if (unencodable !== undefined) this.reportError(unencodable);
    if (isResponse && message.id !== undefined && message.id !== null && channel.settle(message.id)) {
      await this.close();
    }
  }

  /** The signal of a modern request's `extra`: aborted once the client closed the response stream. */
  get requesterSignal(): AbortSignal {
    if (this.#abort === undefined) {
      this.#abort = new AbortController();
      if (this.#gone) this.#abort.abort(goneReason());
    }
    return this.#abort.signal;
  }

  #writer(longLived: boolean): SseWriter {
    return new SseWriter({
      keepAliveMs: longLived ? this.#options.keepAliveMs : 0,
      maxBufferedBytes: this.#options.maxBufferedBytes,
      onDisconnect: (error) => {
        // Dropped for falling behind: the answers it held are lost to this connection; say so.
        if (error !== undefined) this.reportError(error);
        this.#disconnected();
      },
    });
  }

  protected teardown(): void {
    this.#reply?.(accepted());
    this.#reply = undefined;
    this.#channel?.finish();
    this.#options.onFinished();
  }

  #closeWhenDelivered(): void {
    if (this.#started) queueMicrotask(() => void this.close());
    else this.#closeOnStart = true;
  }

  #disconnected(): void {
    const channel = this.#channel;
    if (this.closed || channel === undefined || channel.finished) return;
    if (this.era !== 'modern') return;
    this.#gone = true;
    this.#abort?.abort(goneReason());
    for (const requestId of this.#pending) {
      this.deliver({
        jsonrpc: '2.0',
        method: 'notifications/cancelled',
        params: { requestId, reason: GONE },
      });
    }
    this.#closeWhenDelivered();
  }
}

const GONE = 'The client closed the response stream';

function goneReason(): Error {
  return new Error(GONE);
}

/**
 * The `extra` of a modern request: the POST's own extras plus a `signal` created on first read, so a
 * request whose handler never asks for it costs no AbortController (on Node one costs about as much as
 * the rest of the request's bookkeeping).
 */
class ModernExtra implements MessageExtraInfo {
  readonly requestInfo: MessageExtraInfo['requestInfo'];
  readonly authInfo: MessageExtraInfo['authInfo'];
  readonly #owner: RequestTransport;

  constructor(base: MessageExtraInfo, owner: RequestTransport) {
    this.requestInfo = base.requestInfo;
    this.authInfo = base.authInfo;
    this.#owner = owner;
  }

  get signal(): AbortSignal {
    return this.#owner.requesterSignal;
  }
}
