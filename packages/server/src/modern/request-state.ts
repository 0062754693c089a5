import { ErrorCode, McpError } from '@x/protocol/core';
import { decodeBase64Url, encodeBase64Url } from './base64url.js';
import { canonicalJson } from './canonical-json.js';

/**
 * How long a sealed 2026-07-28 `requestState` stays valid (`requestState.ttlMs`): 10 minutes, time for a
 * user to answer an elicitation, short enough that a leaked state soon stops working.
 *
 * @example
 * ```ts
 * new McpServer(info, { requestState: { key, ttlMs: DEFAULT_REQUEST_STATE_TTL_MS / 2 } });
 * ```
 */
export const DEFAULT_REQUEST_STATE_TTL_MS = 600_000;

/**
 * Largest encoded `requestState` a server accepts or produces (`requestState.maxBytes`): 64 KiB, room
 * for the answers of several input rounds, yet small enough to travel in every retry of the request.
 *
 * @example
 * ```ts
 * new McpServer(info, { requestState: { key, maxBytes: 4 * DEFAULT_MAX_REQUEST_STATE_BYTES } });
 * ```
 */
export const DEFAULT_MAX_REQUEST_STATE_BYTES = 64 * 1024;

/**
 * Options of the `requestState` codec (spec 2026-07-28: basic/patterns/mrtr, "Server Requirements").
 *
 * @example
 * ```ts
 * new McpServer(info, { requestState: { key: process.env.MCP_STATE_KEY, ttlMs: 5 * 60_000 } });
 * ```
 */
export interface RequestStateOptions {
  /**
   * HMAC-SHA256 key. Default: 32 random bytes generated once per process, so state does not survive a
   * restart and is not accepted by another instance: set a shared key when several instances serve
   * the same clients behind a load balancer.
   */
  key?: string | Uint8Array | undefined;
  /**
   * Keys still accepted when opening a state, never used to seal one: rotate `key` without downtime.
   * Roll out the new key here first, then make it `key` with the old one here, and drop the old one once
   * `ttlMs` has passed (every state it sealed has expired by then). Default none.
   */
  previousKeys?: ReadonlyArray<string | Uint8Array> | undefined;
  /** How long a state stays valid, in ms. Default {@link DEFAULT_REQUEST_STATE_TTL_MS} (10 minutes). */
  ttlMs?: number | undefined;
  /** Largest encoded state accepted or produced, in bytes. Default {@link DEFAULT_MAX_REQUEST_STATE_BYTES} (64 KiB). */
  maxBytes?: number | undefined;
  /** Clock, for tests. Default `Date.now`. */
  now?: (() => number) | undefined;
}

/**
 * What a state is bound to: the request it continues and who sent it.
 *
 * @example
 * ```ts
 * // The retry must match the first round in method, target, arguments and principal, or `open` fails.
 * const binding: RequestBinding = {
 *   method: 'tools/call',
 *   target: 'deploy',
 *   arguments: { env: 'prod' },
 *   principal: 'client-42',
 * };
 * const state = await codec.seal(binding, {});
 * ```
 */
export interface RequestBinding {
  method: string;
  /** Tool or prompt name, or resource URI. */
  target: string;
  arguments: unknown;
  /**
   * Authenticated principal (`principalOf` of `@x/protocol/http`: the client and its user); undefined
   * when unauthenticated.
   */
  principal: string | undefined;
}

interface Payload {
  m: string;
  t: string;
  a: string;
  p: string | null;
  x: number;
  r: Record<string, unknown>;
}

const VERSION = 'v1';
const encoder = new TextEncoder();
const decoder = new TextDecoder();
let processKey: Uint8Array | undefined;

function defaultKey(): Uint8Array {
  if (processKey === undefined) processKey = globalThis.crypto.getRandomValues(new Uint8Array(32));
  return processKey;
}

function invalidState(reason: string): McpError {
  return new McpError(ErrorCode.InvalidParams, `Invalid requestState: ${reason}`);
}

/**
 * Seals the answers collected so far into an opaque, integrity-protected `requestState` and opens it
 * again on the retry. Format: `v1.<base64url(JSON payload)>.<base64url(HMAC-SHA256("v1." + payload))>`;
 * the payload holds the method, target, a SHA-256 digest of the arguments, the principal, an expiry
 * and the input responses answered in earlier rounds. Anything that fails to verify is -32602.
 *
 * @example
 * ```ts
 * const codec = new RequestStateCodec({ key: process.env.MCP_STATE_KEY });
 * const binding = { method: 'tools/call', target: 'deploy', arguments: args, principal: auth?.clientId };
 * const state = await codec.seal(binding, { confirm: { action: 'accept' } });
 * const answers = await codec.open(state, binding); // throws McpError(-32602) if tampered or expired
 * ```
 */
export class RequestStateCodec {
  readonly #key: Promise<CryptoKey>;
  /** `previousKeys`, imported; tried after `#key` when a state does not verify. */
  readonly #previous: ReadonlyArray<Promise<CryptoKey>>;
  readonly #ttlMs: number;
  readonly #maxBytes: number;
  readonly #now: () => number;

  constructor(options: RequestStateOptions = {}) {
    this.#key = importKey(options.key ?? defaultKey());
    this.#previous = (options.previousKeys ?? []).map(importKey);
    this.#ttlMs = options.ttlMs ?? DEFAULT_REQUEST_STATE_TTL_MS;
    this.#maxBytes = options.maxBytes ?? DEFAULT_MAX_REQUEST_STATE_BYTES;
    this.#now = options.now ?? Date.now;
  }

  /** Produces the state for an `input_required` result. Throws -32603 when it would exceed the cap. */
  async seal(binding: RequestBinding, answers: Record<string, unknown>): Promise<string> {
    const payload: Payload = {
      m: binding.method,
      t: binding.target,
      a: await digest(binding.arguments),
      p: binding.principal ?? null,
      x: this.#now() + this.#ttlMs,
      r: answers,
    };
    const body = `${VERSION}.${encodeBase64Url(encoder.encode(JSON.stringify(payload)))}`;
    const mac = await globalThis.crypto.subtle.sign('HMAC', await this.#key, encoder.encode(body));
    const token = `${body}.${encodeBase64Url(new Uint8Array(mac))}`;
    if (token.length > this.#maxBytes) {
      throw new McpError(ErrorCode.InternalError, `requestState would exceed ${this.#maxBytes} bytes`);
    }
    return token;
  }

  /** Verifies a state from a retry and returns the answers it carries. */
  async open(token: string, binding: RequestBinding): Promise<Record<string, unknown>> {
    if (token.length > this.#maxBytes) throw invalidState('too large');
    const parts = token.split('.');
    if (parts.length !== 3 || parts[0] !== VERSION) throw invalidState('malformed');
    const payloadBytes = decodeBase64Url(parts[1]!);
    const mac = decodeBase64Url(parts[2]!);
    if (payloadBytes === undefined || mac === undefined) throw invalidState('malformed');
    const body = encoder.encode(`${parts[0]}.${parts[1]}`);
    let valid = await verify(await this.#key, mac, body);
    for (let i = 0; !valid && i < this.#previous.length; i++) {
      valid = await verify(await (this.#previous[i] as Promise<CryptoKey>), mac, body);
    }
    if (!valid) throw invalidState('integrity check failed');
    const payload = JSON.parse(decoder.decode(payloadBytes)) as Payload;
    if (payload.x < this.#now()) throw invalidState('expired');
    if (payload.m !== binding.method || payload.t !== binding.target) {
      throw invalidState('issued for another request');
    }
    if (payload.p !== (binding.principal ?? null)) throw invalidState('issued to another principal');
    if (payload.a !== (await digest(binding.arguments))) throw invalidState('issued for other arguments');
    return payload.r;
  }
}

function importKey(raw: string | Uint8Array): Promise<CryptoKey> {
  const bytes = typeof raw === 'string' ? encoder.encode(raw) : raw;
  if (bytes.length === 0) throw new Error('requestState key must not be empty');
  return globalThis.crypto.subtle.importKey(
    'raw',
    bytes as Uint8Array<ArrayBuffer>,
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign', 'verify'],
  );
}

function verify(key: CryptoKey, mac: Uint8Array, body: Uint8Array): Promise<boolean> {
  return globalThis.crypto.subtle.verify(
    'HMAC',
    key,
    mac as Uint8Array<ArrayBuffer>,
    body as Uint8Array<ArrayBuffer>,
  );
}

async function digest(value: unknown): Promise<string> {
  const hash = await globalThis.crypto.subtle.digest('SHA-256', encoder.encode(canonicalJson(value ?? {})));
  return encodeBase64Url(new Uint8Array(hash));
}
