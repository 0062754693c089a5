import {
  isJSONRPCNotification,
  isJSONRPCRequest,
  isJSONRPCResponse,
  type JSONRPCMessage,
  type JSONRPCNotification,
  type JSONRPCRequest,
  type RequestId,
} from '@x/protocol/core';
import { HttpStatusError } from '@x/protocol/http';

/**
 * Transparent re-initialization (typescript-sdk#1708): the transport remembers the `initialize` request
 * and `notifications/initialized` its client sent, and when the server answers 404 for the session
 * (2025-11-25 "Session Management" 4: the client "MUST start a new session by sending a new
 * InitializeRequest without a session ID attached") it replays both — the initialize under an id of its
 * own, whose response it consumes — so the client layer above never notices.
 */
export class SessionRecovery {
  #init: JSONRPCRequest | undefined;
  #initialized: JSONRPCNotification | undefined;
  #waiting = new Map<RequestId, { resolve(message: JSONRPCMessage): void; reject(error: Error): void }>();
  #running: Promise<void> | undefined;
  #count = 0;

  /** Notes the handshake messages as they go out. */
  remember(message: JSONRPCMessage): void {
    if (isJSONRPCRequest(message) && message.method === 'initialize') this.#init = message;
    else if (isJSONRPCNotification(message) && message.method === 'notifications/initialized') {
      this.#initialized = message;
    }
  }

  /** Whether a 404 for `message` may be answered by re-initializing. */
  canRecover(message: JSONRPCMessage): boolean {
    return this.#init !== undefined && !(isJSONRPCRequest(message) && message.method === 'initialize');
  }

  /** Takes the response to a replayed initialize; true when it was one (it must not reach the client). */
  claim(message: JSONRPCMessage): boolean {
    if (!isJSONRPCResponse(message) || message.id === undefined || message.id === null) return false;
    const waiting = this.#waiting.get(message.id);
    if (waiting === undefined) return false;
    this.#waiting.delete(message.id);
    waiting.resolve(message);
    return true;
  }

  /**
   * Runs the handshake again through `post` (which must not recover on its own). Concurrent 404s share
   * one run.
   */
  recover(post: (message: JSONRPCMessage) => Promise<void>): Promise<void> {
    this.#running ??= this.#run(post).finally(() => {
      this.#running = undefined;
    });
    return this.#running;
  }

  /** Fails a recovery in progress (the transport closed). */
  abort(error: Error): void {
    for (const waiting of this.#waiting.values()) waiting.reject(error);
    this.#waiting.clear();
  }

  async #run(post: (message: JSONRPCMessage) => Promise<void>): Promise<void> {
    const init = this.#init;
    if (init === undefined) return;
    const id = `x-mcp-reinitialize-${++this.#count}`;
    const answered = new Promise<JSONRPCMessage>((resolve, reject) =>
      this.#waiting.set(id, { resolve, reject }),
    );
    try {
      await post({ ...init, id });
    } catch (error) {
      this.#waiting.delete(id);
      throw error;
    }
    const answer = await answered;
    if ('error' in answer) {
      const message = `Re-initialization failed: ${answer.error.message}`;
      throw new HttpStatusError({ status: 200, message });
    }
    if (this.#initialized !== undefined) await post(this.#initialized);
  }
}
