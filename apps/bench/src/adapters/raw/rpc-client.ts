import { BIG_LENGTH, bigParams, echoParams, ECHO_TEXT, INITIALIZE_PARAMS } from '../../payload.js';

interface Pending {
  resolve: (result: unknown) => void;
  reject: (error: Error) => void;
}

/** What the raw responder answers; the fields the raw client reads. */
export interface RawResponse {
  id?: number | string | null;
  result?: unknown;
  error?: { message: string };
}

/**
 * The minimal hand-written JSON-RPC client of the raw reference: ids and a pending map, nothing else.
 * `send` puts one message on the wire (serialized or not, as the transport needs).
 */
export class RpcClient {
  #nextId = 0;
  readonly #pending = new Map<number, Pending>();
  readonly #send: (message: object) => void;

  constructor(send: (message: object) => void) {
    this.#send = send;
  }

  request(method: string, params: object): Promise<unknown> {
    const id = ++this.#nextId;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#send({ jsonrpc: '2.0', id, method, params });
    });
  }

  notify(method: string): void {
    this.#send({ jsonrpc: '2.0', method });
  }

  deliver(message: RawResponse): void {
    const pending = this.#pending.get(message.id as number);
    if (pending === undefined) return;
    this.#pending.delete(message.id as number);
    if (message.error !== undefined) pending.reject(new Error(message.error.message));
    else pending.resolve(message.result);
  }

  failAll(error: Error): void {
    for (const pending of this.#pending.values()) pending.reject(error);
    this.#pending.clear();
  }
}

/** The raw equivalent of an MCP client's connect: `initialize`, then `notifications/initialized`. */
export async function rawHandshake(rpc: RpcClient): Promise<void> {
  await rpc.request('initialize', INITIALIZE_PARAMS);
  rpc.notify('notifications/initialized');
}

export async function rawEcho(rpc: RpcClient): Promise<void> {
  checkEcho(await rpc.request('tools/call', echoParams()));
}

export async function rawBig(rpc: RpcClient): Promise<number> {
  return bigLength(await rpc.request('tools/call', bigParams()));
}

export function checkEcho(result: unknown): void {
  if (textOf(result) !== ECHO_TEXT) throw new Error('echo mismatch');
}

export function bigLength(result: unknown): number {
  const text = textOf(result);
  if (text?.length !== BIG_LENGTH) throw new Error('big result truncated');
  return text.length;
}

function textOf(result: unknown): string | undefined {
  const content = (result as { content?: Array<{ text?: string }> } | undefined)?.content;
  return content?.[0]?.text;
}
