import type { ChangeNotice, Interceptor, ServerCapabilities, Transport, Unsubscribe } from '@x/protocol/core';
import { boundServerStores } from './bounded-server-stores.js';
import {
  type ParamsSchema,
  ServerCore,
  type ServerNotificationHandler,
  type ServerRequestHandler,
} from './server-core.js';
import type { ConnectOptions, ServerInfo, ServerOptions } from './server-options.js';
import type { ServerSession } from './session/server-session.js';
import { SessionEngine } from './session/session-engine.js';

/**
 * The low-level MCP server: one handler per method, shared by every connection, serving the legacy
 * (`initialize`) and the 2026-07-28 (per-request `_meta`) eras side by side. `McpServer` builds on it.
 * Handlers receive the request's params (validated by `schema` when one is given) and a
 * `ServerContext`.
 *
 * @example
 * ```ts
 * const server = new Server({ name: 'echo', version: '1.0.0' }, { capabilities: { tools: {} } });
 * server.setRequestHandler('tools/list', () => ({ tools: [{ name: 'echo', inputSchema: { type: 'object' } }] }));
 * server.setRequestHandler('tools/call', (params) => ({
 *   content: [{ type: 'text', text: JSON.stringify(params['arguments']) }],
 * }));
 * await server.connect(new StdioServerTransport());
 * ```
 */
export class Server {
  readonly #core: ServerCore;
  /** The `fanOut` subscription, once made; changes are published after it so this process hears its own. */
  readonly #fanOut: Promise<Unsubscribe | undefined> | undefined;

  constructor(info: ServerInfo, given: ServerOptions = {}) {
    const options = boundServerStores(given);
    const core = new ServerCore(info, options);
    this.#core = core;
    const fanOut = options.fanOut;
    if (fanOut !== undefined) {
      this.#fanOut = fanOut
        .subscribe((notice) => core.receive(notice))
        .catch((error: unknown) => {
          core.report(error);
          return undefined;
        });
      core.fanOutReady = this.#fanOut;
    }
  }

  get info(): ServerInfo {
    return this.#core.info;
  }

  get capabilities(): ServerCapabilities {
    return this.#core.capabilities;
  }

  /** Open connections. */
  get sessions(): ReadonlySet<ServerSession> {
    const sessions = new Set<ServerSession>();
    for (const engine of this.#core.sessions) sessions.add(engine.session);
    return sessions;
  }

  /** Non-fatal faults: notifications that could not be sent, throwing notification handlers. */
  set onerror(handler: ((error: Error) => void) | undefined) {
    this.#core.onerror = handler;
  }

  get onerror(): ((error: Error) => void) | undefined {
    return this.#core.onerror;
  }

  /**
   * Installs interceptors around the traffic of every connection, open ones included: client requests
   * and this server's answers, server→client requests and the client's answers, notifications both ways
   * (see `Interceptor`). The first installed is the outermost. Returns what removes them.
   *
   * @example
   * ```ts
   * server.use(rateLimit({ perSecond: 20, burst: 40 }));
   * ```
   */
  use(...interceptors: Interceptor[]): () => void {
    return this.#core.interceptors.use(...interceptors);
  }

  /** Adds capabilities (merged per capability); legacy clients see them from their next `initialize`. */
  registerCapabilities(capabilities: ServerCapabilities): void {
    this.#core.registerCapabilities(capabilities);
  }

  /**
   * Registers (or replaces) the handler of a request method, for every connection at once. Throws when
   * the method belongs to a capability the server did not declare (e.g. `tools/call` without `tools`).
   * `initialize`, `ping`, `logging/setLevel`, `resources/(un)subscribe`, `server/discover` and
   * `subscriptions/listen` are built in.
   */
  setRequestHandler<P>(method: string, schema: ParamsSchema<P>, handler: ServerRequestHandler<P>): void;
  setRequestHandler(method: string, handler: ServerRequestHandler): void;
  setRequestHandler(
    method: string,
    schemaOrHandler: ParamsSchema<unknown> | ServerRequestHandler<never>,
    handler?: ServerRequestHandler<never>,
  ): void {
    if (typeof schemaOrHandler === 'function') {
      this.#core.setRequestHandler(method, undefined, schemaOrHandler as ServerRequestHandler<unknown>);
    } else {
      this.#core.setRequestHandler(method, schemaOrHandler, handler as ServerRequestHandler<unknown>);
    }
  }

  removeRequestHandler(method: string): boolean {
    return this.#core.removeRequestHandler(method);
  }

  /** Handles a client notification (e.g. `notifications/roots/list_changed`) from any connection. */
  setNotificationHandler(method: string, handler: ServerNotificationHandler): void {
    this.#core.setNotificationHandler(method, handler);
  }

  /**
   * Serves one more connection. Cheap (a session object pointing at the shared tables), so a transport
   * may call it per HTTP request; the session ends when the transport closes.
   */
  connect(transport: Transport, options: ConnectOptions = {}): Promise<ServerSession> {
    return SessionEngine.open(this.#core, transport, options);
  }

  /** `notifications/tools/list_changed` to every session that wants it. */
  sendToolListChanged(): void {
    this.#announce({ kind: 'tools' });
  }

  sendPromptListChanged(): void {
    this.#announce({ kind: 'prompts' });
  }

  sendResourceListChanged(): void {
    this.#announce({ kind: 'resources' });
  }

  /** `notifications/resources/updated` to the sessions subscribed to `uri` (either era). */
  sendResourceUpdated(uri: string): void {
    this.#announce({ kind: 'resource', uri });
  }

  /** To this process's sessions, or through `fanOut` to every process's (this one's included). */
  #announce(event: ChangeNotice): void {
    this.#core.announce(event);
  }

  /** Closes every connection (open subscriptions end gracefully first) and stops running tasks. */
  async close(): Promise<void> {
    await Promise.all([...this.#core.sessions].map((engine) => engine.close()));
    this.#core.tasks?.receiver.close();
    const unsubscribe = await this.#fanOut;
    await unsubscribe?.().catch((error: unknown) => this.#core.report(error));
  }
}
