import {
  isJSONRPCNotification,
  isJSONRPCResponse,
  type JSONRPCMessage,
  type MessageBus,
  type RequestId,
} from '@x/protocol/core';

/**
 * How the processes of one endpoint route a legacy session's messages over a `MessageBus` (DESIGN §9):
 *
 * - `stream:<streamId>`: messages for a session's GET stream raised on a process that does not hold it,
 *   already stored in the event store (`e`, their event id), for whichever process holds the stream;
 * - `replies:<instanceId>`: a client's answer to a server→client request, posted to a process other than
 *   the one that asked, for the process that asked.
 *
 * Server→client request ids are made unique across processes by prefixing the id the engine chose with
 * the asking process's `instanceId` (`<instanceId>~n42`), and restored before the engine sees the answer.
 */
export const streamTopic = (streamId: string): string => `stream:${streamId}`;
export const repliesTopic = (instanceId: string): string => `replies:${instanceId}`;

/**
 * A message for a GET stream, as published on `stream:<streamId>`: the `PublishedEvent` of
 * `EventStore.storeEventAndPublish`, or the same shape published here (`e` undefined without a store).
 */
export interface StreamPayload {
  e: string | undefined;
  m: JSONRPCMessage;
}

/** An answer for another process, as published on `replies:<instanceId>`. */
export interface ReplyPayload {
  s: string;
  m: JSONRPCMessage;
}

const SEPARATOR = '~';

/** The id a server→client request carries on the wire: unique across the processes of the endpoint. */
export function globalRequestId(instanceId: string, id: RequestId): string {
  return `${instanceId}${SEPARATOR}${typeof id === 'number' ? 'n' : 's'}${id}`;
}

/** The process a client's answer belongs to and the id its engine knows; undefined for a foreign id. */
export function localRequestId(id: unknown): { instanceId: string; id: RequestId } | undefined {
  if (typeof id !== 'string') return undefined;
  const at = id.indexOf(SEPARATOR);
  if (at <= 0 || at + 1 >= id.length) return undefined;
  const kind = id[at + 1];
  const rest = id.slice(at + 2);
  if (kind === 's') return { instanceId: id.slice(0, at), id: rest };
  if (kind === 'n' && /^-?\d{1,16}$/.test(rest)) return { instanceId: id.slice(0, at), id: Number(rest) };
  return undefined;
}

/**
 * Change notifications every process raises for its own copy of a session (the server's `fanOut`):
 * only the process holding the GET stream sends them, or the client would hear each one once per
 * process.
 */
export function isBroadcast(message: JSONRPCMessage): boolean {
  if (!isJSONRPCNotification(message)) return false;
  const method = message.method;
  return method === 'notifications/resources/updated' || method.endsWith('/list_changed');
}

export function isStreamPayload(value: unknown): value is StreamPayload {
  if (typeof value !== 'object' || value === null) return false;
  const { e, m } = value as { e?: unknown; m?: unknown };
  return (e === undefined || typeof e === 'string') && typeof m === 'object' && m !== null;
}

export function isReplyPayload(value: unknown): value is ReplyPayload {
  if (typeof value !== 'object' || value === null) return false;
  const { s, m } = value as { s?: unknown; m?: unknown };
  return typeof s === 'string' && isJSONRPCResponse(m as JSONRPCMessage);
}

/** The bus settings a session shares with its handler. */
export interface SessionBus {
  bus: MessageBus;
  instanceId: string;
}
