/**
 * Ends one `MessageBus` (or `SubscriptionFanOut`) subscription; resolves once no more deliveries come.
 *
 * @example
 * ```ts
 * const unsubscribe: Unsubscribe = await bus.subscribe('session:s-1', onMessage);
 * await unsubscribe();
 * ```
 */
export type Unsubscribe = () => Promise<void>;

/**
 * Delivers messages between the processes that serve one MCP endpoint (DESIGN §9): a process that holds
 * a session's GET stream, or waits for the answer to a server→client request, subscribes to that
 * session's topic; whichever process has something for it publishes there. Payloads are JSON values
 * (what `JSON.stringify` keeps is what arrives); per topic, messages from one publisher arrive in the
 * order they were published. Delivery is at most once, to the subscribers present at the time: what
 * must survive a missing listener goes into the `EventStore` first. `InMemoryMessageBus` connects the
 * handlers of one process; `@x/redis` uses Redis pub/sub.
 *
 * @example
 * ```ts
 * const bus = new InMemoryMessageBus();
 * const unsubscribe = await bus.subscribe('session:s-1', (payload) => console.log(payload));
 * await bus.publish('session:s-1', { jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
 * await unsubscribe();
 * ```
 */
export interface MessageBus {
  /** Delivers `payload` to every current subscriber of `topic`, in this or any other process. */
  publish(topic: string, payload: unknown): Promise<void>;
  /** Calls `listener` with every payload published to `topic` from now until the returned function runs. */
  subscribe(topic: string, listener: (payload: unknown) => void): Promise<Unsubscribe>;
}
