import { ErrorCode, McpError } from './errors.js';
import {
  isJSONRPCRequest,
  isJSONRPCResponse,
  type JSONRPCErrorResponse,
  type JSONRPCMessage,
  type JSONRPCResponse,
  type ParseOptions,
  type RequestId,
  parseJsonText,
  validateMessage,
} from './jsonrpc.js';

/**
 * JSON-RPC 2.0 batches (https://www.jsonrpc.org/specification#batch) as MCP 2025-03-26 has them, shared by
 * every transport: "MCP implementations MAY support sending JSON-RPC batches, but MUST support receiving
 * JSON-RPC batches" (2025-03-26 basic). 2025-06-18 removed them again, so a batch is accepted only on a
 * session that negotiated exactly 2025-03-26; anywhere else it is refused with one -32600 error, id null.
 */

/**
 * The one protocol revision with JSON-RPC batches.
 *
 * @example
 * ```ts
 * if (negotiatedVersion === BATCH_PROTOCOL_VERSION) console.log('this peer may send batches');
 * ```
 */
export const BATCH_PROTOCOL_VERSION = '2025-03-26' as const;

/**
 * Most messages one batch may hold before it is refused whole (the spec sets no limit; this bounds the
 * answers a transport keeps while a batch is being worked on).
 *
 * @example
 * ```ts
 * const reading = readBatch(values, { protocolVersion, maxBatchSize: DEFAULT_MAX_BATCH_SIZE / 10 });
 * ```
 */
export const DEFAULT_MAX_BATCH_SIZE = 1_000;

/**
 * Whether a session of this negotiated version takes batches (only 2025-03-26; `undefined`, i.e. before
 * `initialize` completed, does not).
 *
 * @example
 * ```ts
 * transport.setProtocolVersion = (version) => {
 *   batchesAllowed = acceptsBatches(version);
 * };
 * ```
 */
export function acceptsBatches(protocolVersion: string | undefined): boolean {
  return protocolVersion === BATCH_PROTOCOL_VERSION;
}

/**
 * Decodes one serialized message or batch. A JSON array comes back as it is (undecided: pass it to
 * `readBatch`); anything else is checked as one message. Throws `McpError(ParseError)` for text that is
 * not JSON and `McpError(InvalidRequest)` for a non-array that is not a JSON-RPC message.
 *
 * @example
 * ```ts
 * const decoded = parseMessageOrBatch(frame);
 * if (Array.isArray(decoded)) handleBatch(decoded);
 * else transport.onmessage?.(decoded);
 * ```
 */
export function parseMessageOrBatch(text: string, options?: ParseOptions): JSONRPCMessage | unknown[] {
  const value = parseJsonText(text, options);
  return Array.isArray(value) ? value : validateMessage(value);
}

/**
 * What `readBatch` made of a decoded array: refused whole (`ok: false`, answer with `error`, nothing is
 * delivered), or accepted (`ok: true`): deliver `messages` in order; `errors` answer the invalid elements
 * and belong in the same answer array as the responses to the requests.
 *
 * @example
 * ```ts
 * const reading: BatchReading = readBatch(values, { protocolVersion: '2025-03-26' });
 * if (!reading.ok) await write(reading.error);
 * ```
 */
export type BatchReading =
  | { readonly ok: false; readonly error: JSONRPCErrorResponse }
  | { readonly ok: true; readonly messages: JSONRPCMessage[]; readonly errors: JSONRPCErrorResponse[] };

/**
 * Options of `readBatch`.
 *
 * @example
 * ```ts
 * const options: ReadBatchOptions = { protocolVersion: session.version, maxBatchSize: 100 };
 * ```
 */
export interface ReadBatchOptions {
  /** The session's negotiated version; `undefined` before `initialize` completed. */
  protocolVersion: string | undefined;
  /** Refuse batches with more elements than this. Default `DEFAULT_MAX_BATCH_SIZE`. */
  maxBatchSize?: number | undefined;
}

function duplicateIdError(id: RequestId, where: string): JSONRPCErrorResponse {
  return {
    jsonrpc: '2.0',
    id,
    error: {
      code: ErrorCode.InvalidRequest,
      message: `Invalid Request: request id ${JSON.stringify(id)} is already in use ${where}`,
    },
  };
}

function refuse(message: string): BatchReading {
  return {
    ok: false,
    error: { jsonrpc: '2.0', id: null, error: { code: ErrorCode.InvalidRequest, message } },
  };
}

function idOf(data: unknown): RequestId | null {
  if (typeof data !== 'object' || data === null || !('id' in data)) return null;
  const id = data.id;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

/**
 * Checks a decoded JSON array against the batch rules of JSON-RPC 2.0 and MCP 2025-03-26. Refused whole,
 * with one -32600 error (id null): an empty array ("an empty Array" is an Invalid Request), more than
 * `maxBatchSize` elements, a session not on 2025-03-26, and a batch holding `initialize` ("The
 * initialize request MUST NOT be part of a JSON-RPC batch"). Otherwise each invalid element gets its own
 * -32600 error (with its id when readable) and the valid ones are delivered.
 *
 * @example
 * ```ts
 * const reading = readBatch(JSON.parse(body), { protocolVersion: negotiatedVersion });
 * if (!reading.ok) return respond(400, reading.error);
 * const flushNow = collector.open(reading);
 * for (const message of reading.messages) transport.onmessage?.(message);
 * ```
 */
export function readBatch(values: readonly unknown[], options: ReadBatchOptions): BatchReading {
  if (values.length === 0) return refuse('Invalid Request: an empty JSON-RPC batch');
  const max = options.maxBatchSize ?? DEFAULT_MAX_BATCH_SIZE;
  if (values.length > max)
    return refuse(`Invalid Request: a JSON-RPC batch may hold at most ${max} messages (maxBatchSize)`);
  if (!acceptsBatches(options.protocolVersion)) {
    const negotiated = options.protocolVersion ?? 'none yet';
    return refuse(
      `Invalid Request: JSON-RPC batches are only allowed in protocol version ${BATCH_PROTOCOL_VERSION} (negotiated: ${negotiated})`,
    );
  }
  const messages: JSONRPCMessage[] = [];
  const errors: JSONRPCErrorResponse[] = [];
  let requestIds: Set<RequestId> | undefined;
  for (const value of values) {
    let message: JSONRPCMessage;
    try {
      message = validateMessage(value);
    } catch (error) {
      const invalid =
        error instanceof McpError ? error : new McpError(ErrorCode.InvalidRequest, String(error));
      errors.push({
        jsonrpc: '2.0',
        id: idOf(invalid.data),
        error: { code: ErrorCode.InvalidRequest, message: invalid.message },
      });
      continue;
    }
    if (isJSONRPCRequest(message)) {
      if (message.method === 'initialize') {
        return refuse('Invalid Request: initialize must not be part of a JSON-RPC batch');
      }
      // A second request with the same id could never be told apart in the answer array, and its answer
      // would be taken for the first one's (issue #24 item 10): answer it alone with -32600.
      requestIds ??= new Set();
      if (requestIds.has(message.id)) {
        errors.push(duplicateIdError(message.id, 'in this batch'));
        continue;
      }
      requestIds.add(message.id);
    }
    messages.push(message);
  }
  return { ok: true, messages, errors };
}

/**
 * Options of `new BatchResponses(options)`.
 *
 * @example
 * ```ts
 * const batches = new BatchResponses({ write: (responses) => socket.send(JSON.stringify(responses)) });
 * ```
 */
export interface BatchResponsesOptions {
  /** Writes the answers of one batch as one array (JSON-RPC 2.0: "an Array containing the corresponding Response objects"). */
  write: (responses: JSONRPCResponse[]) => Promise<void>;
}

/**
 * Options of `BatchResponses.receive`.
 *
 * @example
 * ```ts
 * const options: ReceiveBatchOptions = {
 *   protocolVersion: '2025-03-26',
 *   deliver: (message) => void transport.onmessage?.(message),
 *   refuse: (error) => writeLine(JSON.stringify(error)),
 *   onerror: (error) => transport.onerror?.(error),
 * };
 * ```
 */
export interface ReceiveBatchOptions extends ReadBatchOptions {
  /** Delivers one message of an accepted batch; returning false stops the rest (the transport closed). */
  deliver: (message: JSONRPCMessage) => unknown;
  /** Writes the single error that refuses a batch whole. */
  refuse: (error: JSONRPCErrorResponse) => Promise<void>;
  /** The refusal itself, and any failed write. */
  onerror: (error: Error) => void;
}

interface OpenBatch {
  waiting: number;
  readonly responses: JSONRPCResponse[];
}

/**
 * Collects the responses to the requests of accepted batches, so a transport writes each batch's
 * answers as one array once its last request is answered ("The Server should respond with an Array
 * containing the corresponding Response objects, after all of the batch Request objects have been
 * processed"; order is free). A batch of only notifications and responses is answered with nothing.
 *
 * Memory stays bounded: a batch holds at most `maxBatchSize` requests (see `readBatch`), and `clear()`
 * (call it when the transport closes) forgets every open batch, so answers that come later are not kept.
 * A request whose id is already awaited (a duplicate, in the same batch or a later one) is tracked once
 * more: the engine answers a duplicate at once (-32600) while the original is still running, so the
 * latest batch holding an id takes that id's next answer — the duplicate's error lands in the array of
 * the batch that sent the duplicate, the original's result in its own batch's array.
 *
 * @example
 * ```ts
 * const batches = new BatchResponses({ write: (responses) => writeLine(JSON.stringify(responses)) });
 * // Receiving an accepted batch:
 * void batches.open(reading)?.catch(report);
 * for (const message of reading.messages) transport.onmessage?.(message);
 * // In send(): a response to a batch request is held for the batch's array.
 * const held = batches.take(message);
 * if (held !== undefined) return held;
 * ```
 */
export class BatchResponses {
  readonly #write: (responses: JSONRPCResponse[]) => Promise<void>;
  /**
   * Created by the first batch: most sessions never send one. An id awaited by several batches (or twice
   * by one) maps to a stack of them, newest last.
   */
  #byId: Map<RequestId, OpenBatch | OpenBatch[]> | undefined;
  #pending = 0;

  constructor(options: BatchResponsesOptions) {
    this.#write = options.write;
  }

  /** Requests still awaiting their response across all open batches (0 on the single-message path). */
  get pending(): number {
    return this.#pending;
  }

  /**
   * Whether a request with this id awaits its answer in an open batch. A transport answers a new request
   * reusing that id with `duplicateRequestError(id)` instead of delivering it: its answer would
   * otherwise be taken for the batch's.
   */
  awaits(id: RequestId): boolean {
    return this.#byId !== undefined && this.#byId.size > 0 && this.#byId.has(id);
  }

  /**
   * The answer for a single (non-batch) request reusing the id of one awaiting its answer in an open
   * batch: `duplicateRequestError(id)`, to write instead of delivering it (its answer would otherwise be
   * taken for the batch's). Undefined for anything else, at once when no batch is open.
   *
   * @example
   * ```ts
   * const refusal = batches.duplicateAnswer(message);
   * if (refusal !== undefined) await writeLine(refusal);
   * else deliver(message);
   * ```
   */
  duplicateAnswer(message: JSONRPCMessage): JSONRPCErrorResponse | undefined {
    if (this.#pending === 0 || !isJSONRPCRequest(message) || !this.awaits(message.id)) return undefined;
    return duplicateRequestError(message.id);
  }

  /**
   * Moves the requests of an accepted batch that reuse an id still awaiting its answer in an earlier
   * batch to the batch's errors (answered -32600 within this batch). Call before `open`; `receive` does.
   *
   * @example
   * ```ts
   * const reading = readBatch(values, { protocolVersion });
   * if (reading.ok) {
   *   batches.screen(reading);
   *   void batches.open(reading);
   * }
   * ```
   */
  screen(reading: { readonly messages: JSONRPCMessage[]; readonly errors: JSONRPCErrorResponse[] }): void {
    const byId = this.#byId;
    if (byId === undefined || byId.size === 0) return;
    const messages = reading.messages.filter((message) => {
      if (!isJSONRPCRequest(message) || !byId.has(message.id)) return true;
      reading.errors.push(duplicateIdError(message.id, 'by a request awaiting its answer'));
      return false;
    });
    reading.messages.length = 0;
    reading.messages.push(...messages);
  }

  /**
   * Starts collecting for an accepted batch; call before delivering its messages. When the batch holds
   * no request but invalid elements, their errors are written at once and the write is returned.
   */
  open(reading: {
    readonly messages: readonly JSONRPCMessage[];
    readonly errors: readonly JSONRPCErrorResponse[];
  }): Promise<void> | undefined {
    const batch: OpenBatch = { waiting: 0, responses: [...reading.errors] };
    this.#byId ??= new Map();
    const byId = this.#byId;
    for (const message of reading.messages) {
      if (!isJSONRPCRequest(message)) continue;
      const id = message.id;
      const awaited = byId.get(id);
      if (awaited === undefined) byId.set(id, batch);
      else if (Array.isArray(awaited)) awaited.push(batch);
      else byId.set(id, [awaited, batch]);
      batch.waiting++;
      this.#pending++;
    }
    if (batch.waiting === 0 && batch.responses.length > 0) return this.#write(batch.responses);
    return undefined;
  }

  /**
   * Takes an outgoing message if it answers a request of an open batch: resolves at once while other
   * requests of that batch are still open, and with the write of the whole array for the last one.
   * Returns `undefined` for anything else, which the transport sends as usual; while no batch is open
   * (every message of a session that never sends one) that is all it checks.
   */
  take(message: JSONRPCMessage): Promise<void> | undefined {
    const byId = this.#byId;
    if (byId === undefined || byId.size === 0 || !isJSONRPCResponse(message)) return undefined;
    const id = message.id;
    if (id === undefined || id === null) return undefined;
    const awaited = byId.get(id);
    if (awaited === undefined) return undefined;
    let batch: OpenBatch;
    if (!Array.isArray(awaited)) {
      batch = awaited;
      byId.delete(id);
    } else {
      batch = awaited.pop() as OpenBatch;
      if (awaited.length === 1) byId.set(id, awaited[0] as OpenBatch);
    }
    this.#pending--;
    batch.responses.push(message);
    if (--batch.waiting > 0) return Promise.resolve();
    return this.#write(batch.responses);
  }

  /**
   * Takes a decoded array as a batch, the way a message-stream transport (stdio, WebSocket, an SSE
   * event) does: refused whole → the error is reported to `onerror` and written with `refuse`; accepted
   * → the batch is opened (its answers, and the errors of its invalid elements, go out as one array
   * through this collector's `write`) and each message is delivered until `deliver` returns false.
   *
   * @example
   * ```ts
   * const decoded = parseMessageOrBatch(line);
   * if (!Array.isArray(decoded)) deliver(decoded);
   * else batches.receive(decoded, { protocolVersion, deliver, refuse: writeLine, onerror: report });
   * ```
   */
  receive(values: readonly unknown[], options: ReceiveBatchOptions): void {
    const report = (error: unknown): void =>
      options.onerror(error instanceof Error ? error : new Error(String(error)));
    const reading = readBatch(values, options);
    if (!reading.ok) {
      report(new McpError(reading.error.error.code, reading.error.error.message));
      options.refuse(reading.error).catch(report);
      return;
    }
    this.screen(reading);
    this.open(reading)?.catch(report);
    for (const message of reading.messages) if (options.deliver(message) === false) return;
  }

  /** Forgets every open batch (the transport closed): later answers are neither kept nor written. */
  clear(): void {
    this.#byId?.clear();
    this.#pending = 0;
  }
}

/**
 * The answer to a request that reuses the id of a request still awaiting its answer (-32600, with that
 * id): see `BatchResponses.awaits`.
 *
 * @example
 * ```ts
 * if (isJSONRPCRequest(message) && batches.awaits(message.id)) await writeLine(duplicateRequestError(message.id));
 * ```
 */
export function duplicateRequestError(id: RequestId): JSONRPCErrorResponse {
  return duplicateIdError(id, 'by a request awaiting its answer');
}
