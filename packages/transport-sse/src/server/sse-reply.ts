import type { McpError } from '@x/protocol/core';
import { jsonRpcErrorText } from '@x/protocol/http';
import type { SseSink } from './sse-sink.js';

/**
 * What the `SseServer` core answers, before any runtime's response object exists: the Web-standard
 * entry turns it into a `Response`, the `node:http` adapter writes it to the `ServerResponse` directly
 * (a `Response` with a body costs a `ReadableStream`, and reading it back costs more).
 */
export type SseReply<S extends SseSink> =
  | TextReply
  /** The `authenticate` hook's own answer (e.g. 401 with `WWW-Authenticate`). */
  | { readonly kind: 'response'; readonly response: Response }
  /** A session's event stream, 200 with {@link SSE_HEADERS} (and `headers`: CORS, when configured). */
  | { readonly kind: 'stream'; readonly sink: S; readonly headers?: Readonly<Record<string, string>> };

/** A finite answer: the 202 of an accepted POST, or an error. */
export interface TextReply {
  readonly kind: 'text';
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

export const SSE_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache, no-transform',
  // Stops nginx from buffering the stream, which would delay every event until the buffer fills.
  'x-accel-buffering': 'no',
};

/** The answer to every POST that was taken: the message's own answer comes on the event stream. */
export const ACCEPTED: TextReply = {
  kind: 'text',
  status: 202,
  headers: { 'content-type': 'text/plain' },
  body: 'Accepted',
};

const JSON_HEADERS: Readonly<Record<string, string>> = { 'content-type': 'application/json' };

/**
 * A transport-level rejection: the body is a JSON-RPC error without an id (2025-11-25 transports: "The
 * HTTP response body MAY comprise a JSON-RPC error response that has no id"), as `jsonRpcErrorResponse`
 * builds it.
 */
export function errorReply(
  status: number,
  code: number,
  message: string,
  headers?: Readonly<Record<string, string>>,
): TextReply {
  return {
    kind: 'text',
    status,
    headers: headers === undefined ? JSON_HEADERS : { ...headers, ...JSON_HEADERS },
    body: jsonRpcErrorText(code, message),
  };
}

/**
 * A 400 for a body that is not one usable message. The request's id is echoed when it was readable
 * (`McpError.data.id`, set by `validateMessage`): JSON-RPC 2.0 §5 answers with null only "if there was
 * an error in detecting the id".
 */
export function invalidMessageReply(error: McpError): TextReply {
  const id = (error.data as { id?: unknown } | undefined)?.id;
  const init = typeof id === 'string' || typeof id === 'number' ? { id } : {};
  return {
    kind: 'text',
    status: 400,
    headers: JSON_HEADERS,
    body: jsonRpcErrorText(error.code, error.message, init),
  };
}

/** The same reply with `extra` headers (CORS) on top of its own. */
export function withHeaders<S extends SseSink>(
  reply: SseReply<S>,
  extra: Readonly<Record<string, string>>,
): SseReply<S> {
  switch (reply.kind) {
    case 'text':
      return { ...reply, headers: { ...reply.headers, ...extra } };
    case 'stream':
      return { kind: 'stream', sink: reply.sink, headers: extra };
    default: {
      // The `authenticate` hook's own Response (e.g. a 401): its headers may be immutable, copy it.
      const response = new Response(reply.response.body, reply.response);
      for (const name of Object.keys(extra)) response.headers.set(name, extra[name]!);
      return { kind: 'response', response };
    }
  }
}
