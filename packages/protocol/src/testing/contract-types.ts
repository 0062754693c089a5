import type { Transport } from '../transport.js';
import type { SkippedScenario } from './contract-errors.js';

/**
 * Two connected ends of the transport under test.
 *
 * By default both ends come back unstarted and the kit attaches its handlers, then calls
 * `server.start()` and `client.start()`. Some transports only have a server end once the client has
 * connected (WebSocket, SSE, a per-session HTTP transport): the factory then starts the client, waits
 * for the server end to appear, starts that too, and returns the pair with `started: true`. The kit
 * sends nothing before its handlers are attached, so nothing is lost either way.
 *
 * @example
 * ```ts
 * const [client, server] = InMemoryTransport.createLinkedPair();
 * const pair: TransportPair = { client, server };
 * ```
 */
export interface TransportPair {
  client: Transport;
  server: Transport;
  /** Both ends are already started; the kit must not call `start()` again. Default `false`. */
  started?: boolean | undefined;
  /** Releases what the factory set up (servers, ports, child processes). Called after both ends closed. */
  dispose?: (() => Promise<void>) | undefined;
}

/**
 * What a factory learns about the scenario it builds a pair for.
 *
 * @example
 * ```ts
 * const factory: TransportPairFactory = async ({ scenario, signal }) => {
 *   console.debug(`building a pair for ${scenario}`);
 *   signal.throwIfAborted(); // the scenario already timed out: stop setting up
 *   const [client, server] = InMemoryTransport.createLinkedPair();
 *   return { client, server };
 * };
 * ```
 */
export interface TransportPairContext {
  /** Name of the scenario about to run (handy in logs, or to pick a port per scenario). */
  scenario: string;
  /** Aborted when the scenario's timeout expires; stop any slow setup when it fires. */
  signal: AbortSignal;
}

/**
 * Builds a fresh, connected pair for one scenario. Called once per scenario: every scenario gets its own
 * pair, so a broken close in one cannot poison the next.
 *
 * @example
 * ```ts
 * // Server end created by the connection: start both here and say so.
 * const factory: TransportPairFactory = async ({ signal }) => {
 *   const server = await listenOnFreePort({ signal });
 *   const client = new WebSocketClientTransport(server.url);
 *   const accepted = server.nextTransport();
 *   await client.start();
 *   const serverEnd = await accepted;
 *   await serverEnd.start();
 *   return { client, server: serverEnd, started: true, dispose: () => server.close() };
 * };
 * ```
 */
export type TransportPairFactory = (context: TransportPairContext) => Promise<TransportPair>;

/**
 * Knobs for a contract run; every one has a default that suits an in-process or loopback transport.
 *
 * @example
 * ```ts
 * await runTransportContract(factory, {
 *   timeoutMs: 30_000,
 *   settleMs: 200,
 *   skip: { 'close-from-server': 'a stateless HTTP server end cannot close the client' },
 * });
 * ```
 */
export interface TransportContractOptions {
  /**
   * Hard limit for one scenario, building and starting the pair included. Default 10 000 ms. Teardown
   * (`close()` on both ends, then `dispose()`) is bounded separately, by `sendSettleMs` per step.
   */
  timeoutMs?: number | undefined;
  /**
   * How long to keep watching after the interesting part of a scenario, to catch a second `onclose` or a
   * late message. Default 50 ms; raise it for transports whose close propagates slowly.
   */
  settleMs?: number | undefined;
  /** How long a `send()` on a closed transport may take to reject before it counts as hanging. Default 2 000 ms. */
  sendSettleMs?: number | undefined;
  /** Messages per direction in `ordering` and `no-delivery-after-close`. Default 1 000. */
  messageCount?: number | undefined;
  /** UTF-8 size of the string parameter in `large-message`. Default 1 MiB. */
  largeMessageBytes?: number | undefined;
  /** In-flight requests per direction in `concurrent-requests`. Default 1 000. */
  concurrentRequests?: number | undefined;
  /**
   * Scenarios to leave out, by name, each with the reason (it is reported back in `skipped`). Naming a
   * scenario that does not exist is an error, so a typo cannot silently skip nothing.
   */
  skip?: Readonly<Record<string, string>> | undefined;
}

/** `TransportContractOptions` with every default filled in. */
export interface ResolvedTransportContractOptions {
  timeoutMs: number;
  settleMs: number;
  sendSettleMs: number;
  messageCount: number;
  largeMessageBytes: number;
  concurrentRequests: number;
  skip: Readonly<Record<string, string>>;
}

/**
 * One named check of the contract; `run` builds its own pair, enforces its own timeout, and cleans up.
 *
 * @example
 * ```ts
 * // Run one scenario by itself, e.g. while debugging a failure.
 * const ordering = transportContractScenarios.find((scenario) => scenario.name === 'ordering');
 * await ordering?.run(async () => {
 *   const [client, server] = InMemoryTransport.createLinkedPair();
 *   return { client, server };
 * }, { messageCount: 10 });
 * ```
 */
export interface TransportContractScenario {
  readonly name: string;
  /** One sentence: what a transport must do to pass. */
  readonly description: string;
  /**
   * Resolves when the transport passed; rejects with a `ContractScenarioError` otherwise. `options.skip`
   * is ignored here: skipping is `runTransportContract`'s job.
   */
  run(factory: TransportPairFactory, options?: TransportContractOptions): Promise<void>;
}

/**
 * What `runTransportContract` resolves with when every scenario that ran passed.
 *
 * @example
 * ```ts
 * const result: TransportContractResult = await runTransportContract(factory);
 * console.log(`${result.passed.length} passed, ${result.skipped.length} skipped`);
 * ```
 */
export interface TransportContractResult {
  passed: string[];
  skipped: SkippedScenario[];
}
