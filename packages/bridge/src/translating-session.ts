import {
  ConnectionClosedError,
  ErrorCode,
  type Implementation,
  type LoggingLevel,
  McpError,
  type Transport,
} from '@x/protocol/core';
import { Server, type ServerContext, type ServerSession } from '@x/server';
import { peerLostError } from './bridge-errors.js';
import { forwardedMeta } from './forwarded-meta.js';
import { downstreamCapabilities, FORWARDED_METHODS } from './forwarded-methods.js';
import type { UpstreamLink } from './upstream-link.js';
import { followUpstream } from './upstream-listen.js';
import { FORWARDED_TASK_METHODS, forwardedTasks, forwardTask } from './task-forwarding.js';

export interface TranslatingSessionOptions {
  readonly upstreamName: string;
  /** The `serverInfo` shown downstream; default the upstream's. */
  readonly info: Implementation | undefined;
}

/**
 * One downstream session of a translating bridge: a `Server` of its own in front of an upstream
 * `Client` (by default opened for this session alone, so no two clients share an upstream's state,
 * logs or input requests). Requests go up with the downstream request's signal, `_meta` and progress;
 * the upstream's input requests (elicitation, sampling, roots) and logs go down on the downstream
 * request they belong to (`UpstreamLink`).
 */
export class TranslatingSession {
  readonly #link: UpstreamLink;
  readonly #upstreamName: string;
  readonly #server: Server;
  readonly #unlisten: () => void;
  #session: ServerSession | undefined;
  #upstreamLost = false;
  /** A 2026-07-28 upstream's `subscriptions/listen` stream per URI the downstream subscribed to. */
  readonly #upstreamListens = new Map<string, AbortController>();
  /** How many of a 2026-07-28 downstream's open `subscriptions/listen` streams watch each URI. */
  readonly #watchers = new Map<string, number>();
  #ended: Promise<void> | undefined;
  readonly #closed: Promise<void>;
  #resolveClosed!: () => void;
  /** Settles when no forwarded request is left unanswered (the last answers went out). */
  #idle: Promise<void> = Promise.resolve();
  #inFlight = 0;
  #resolveIdle: (() => void) | undefined;

  constructor(link: UpstreamLink, options: TranslatingSessionOptions) {
    const { upstreamName, info } = options;
    const client = link.client;
    this.#link = link;
    this.#upstreamName = upstreamName;
    this.#closed = new Promise<void>((resolve) => {
      this.#resolveClosed = resolve;
    });
    const instructions = client.instructions;
    this.#server = new Server(info ?? client.serverInfo ?? { name: 'x-mcp-bridge', version: '0.0.0' }, {
      capabilities: downstreamCapabilities(client.serverCapabilities),
      ...(instructions === undefined ? {} : { instructions }),
    });
    this.#route();
    this.#unlisten = link.listen({
      toolsListChanged: () => void this.#server.sendToolListChanged(),
      promptsListChanged: () => void this.#server.sendPromptListChanged(),
      resourcesListChanged: () => void this.#server.sendResourceListChanged(),
      resourceUpdated: (uri) => void this.#server.sendResourceUpdated(uri),
      log: (params) => {
        if (this.#session?.legacy === undefined) return;
        void this.#session
          .notification({ method: 'notifications/message', params: { ...params } })
          .catch(() => undefined);
      },
      lost: () => this.#lose(),
    });
  }

  get closed(): Promise<void> {
    return this.#closed;
  }

  /** Serves `downstream`; the session ends when either side closes. */
  async serve(downstream: Transport): Promise<void> {
    this.#session = await this.#server.connect(downstream);
    // The engine's own close handling first, then the session (and an upstream of its own) goes.
    const engineOnClose = downstream.onclose;
    downstream.onclose = () => {
      engineOnClose?.();
      void this.close();
    };
  }

  close(): Promise<void> {
    this.#unlisten();
    for (const listen of this.#upstreamListens.values()) listen.abort();
    this.#upstreamListens.clear();
    // A shared upstream outlives its sessions: the bridge closes it.
    const upstream = this.#link.shared ? Promise.resolve() : this.#link.close();
    this.#ended ??= Promise.allSettled([this.#server.close(), upstream]).then(() => this.#resolveClosed());
    return this.#ended;
  }

  /** The upstream is gone: the requests it owed are answered (`peerLostError`) before the downstream goes. */
  #lose(): void {
    this.#upstreamLost = true;
    void this.#idle.then(() => this.close());
  }

  #route(): void {
    const client = this.#link.client;
    const capabilities = client.serverCapabilities ?? {};
    for (const [capability, methods] of Object.entries(FORWARDED_METHODS)) {
      if (capabilities[capability as keyof typeof FORWARDED_METHODS] === undefined) continue;
      for (const method of methods) {
        this.#server.setRequestHandler(method, (params, ctx) => this.#forward(method, params, ctx));
      }
    }
    // 2025-11-25 tasks cross unchanged between hops of that revision (`task-forwarding.ts`); the
    // engine answers -32601 to a host of another revision before these handlers run.
    if (forwardedTasks(client, '2025-11-25') !== undefined) {
      for (const method of FORWARDED_TASK_METHODS) {
        this.#server.setRequestHandler(method, (params, ctx) => this.#forward(method, params, ctx));
      }
    }
    const subscribe = capabilities.resources?.subscribe === true && !this.#link.shared;
    const upstreamLogs = capabilities.logging !== undefined && client.era === 'legacy' && !this.#link.shared;
    // `resources/(un)subscribe` and `logging/setLevel` are answered by the downstream `Server`; the
    // upstream follows first, so `notifications/resources/updated` and log messages have a source.
    this.#server.use({
      incomingRequest: async (request, _ctx, next) => {
        if (this.#link.shared && request.method === 'initialize') throw sharedRefusal(this.#upstreamName);
        const params = request.params as { uri?: unknown; level?: unknown } | undefined;
        const uri = params?.uri;
        if (request.method === 'subscriptions/listen') {
          return this.#listenFor(request.params, subscribe, () => next(request));
        }
        if (request.method === 'initialize') return this.#initialize(() => next(request));
        if (subscribe && typeof uri === 'string' && request.method === 'resources/subscribe') {
          await this.#subscribeUpstream(uri);
        } else if (subscribe && typeof uri === 'string' && request.method === 'resources/unsubscribe') {
          await this.#unsubscribeUpstream(uri);
        } else if (
          upstreamLogs &&
          request.method === 'logging/setLevel' &&
          typeof params?.level === 'string'
        ) {
          await client.setLoggingLevel(params.level as LoggingLevel);
        }
        return next(request);
      },
    });
  }

  /**
   * A legacy host's `initialize`. It hears list changes any time after: a 2026-07-28 upstream sends them
   * only on a stream, opened (and acknowledged) before the handshake completes. Its `capabilities` gain
   * the upstream's `tasks` when both hops speak 2025-11-25 (the `Server` declares `tasks` only for a
   * task store of its own; the bridge's tasks are the upstream's).
   */
  async #initialize<R>(handshake: () => Promise<R>): Promise<R> {
    const client = this.#link.client;
    if (client.era === 'modern') await this.#link.followListChanges();
    const result = await handshake();
    const answer = result as { protocolVersion?: string; capabilities?: object } | undefined;
    const tasks = forwardedTasks(client, answer?.protocolVersion);
    if (tasks === undefined || answer === undefined) return result;
    return { ...answer, capabilities: { ...answer.capabilities, tasks } } as R;
  }

  /**
   * Follows `uri` upstream: `resources/subscribe` on a legacy upstream; a 2026-07-28 upstream has no such
   * method, so a `subscriptions/listen` stream for it (its updates reach the downstream through the
   * `Client`'s `resourceUpdated` event, like a legacy upstream's).
   */
  async #subscribeUpstream(uri: string): Promise<void> {
    const client = this.#link.client;
    if (client.era !== 'modern') {
      await client.subscribeResource({ uri });
      return;
    }
    if (this.#upstreamListens.has(uri)) return;
    const listen = new AbortController();
    this.#upstreamListens.set(uri, listen);
    try {
      await followUpstream(client, { resourceSubscriptions: [uri] }, listen.signal);
    } catch (error) {
      listen.abort();
      this.#upstreamListens.delete(uri);
      throw error;
    }
  }

  /**
   * A 2026-07-28 downstream's `subscriptions/listen` (`serve` runs it: acknowledged, then open until the
   * host cancels it). The upstream follows first, so a change has a source before the host hears the
   * acknowledgement: the list changes (a 2026-07-28 upstream's stream, `UpstreamLink`), and with
   * `subscribe` each URI in `resourceSubscriptions`, let go once the host's stream ended and no other of
   * its streams watches the URI.
   */
  async #listenFor<R>(params: unknown, subscribe: boolean, serve: () => Promise<R>): Promise<R> {
    const filter = (params as { notifications?: Record<string, unknown> } | undefined)?.notifications;
    const lists = ['toolsListChanged', 'promptsListChanged', 'resourcesListChanged'];
    if (this.#link.client.era === 'modern' && lists.some((flag) => filter?.[flag] === true)) {
      await this.#link.followListChanges();
    }
    const requested = subscribe ? filter?.['resourceSubscriptions'] : undefined;
    const uris = Array.isArray(requested)
      ? [...new Set(requested.filter((uri): uri is string => typeof uri === 'string'))]
      : [];
    const held: string[] = [];
    const release = (): void => {
      for (const uri of held) void this.#unwatch(uri).catch(() => undefined);
    };
    try {
      for (const uri of uris) {
        await this.#watch(uri);
        held.push(uri);
      }
    } catch (error) {
      release();
      throw error;
    }
    try {
      return await serve();
    } finally {
      release();
    }
  }

  async #watch(uri: string): Promise<void> {
    const watchers = this.#watchers.get(uri) ?? 0;
    this.#watchers.set(uri, watchers + 1);
    if (watchers > 0) return;
    try {
      await this.#subscribeUpstream(uri);
    } catch (error) {
      this.#forget(uri);
      throw error;
    }
  }

  async #unwatch(uri: string): Promise<void> {
    if (this.#forget(uri) === 0) await this.#unsubscribeUpstream(uri);
  }

  /** One watcher of `uri` fewer; how many are left. */
  #forget(uri: string): number {
    const left = (this.#watchers.get(uri) ?? 1) - 1;
    if (left > 0) this.#watchers.set(uri, left);
    else this.#watchers.delete(uri);
    return left;
  }

  async #unsubscribeUpstream(uri: string): Promise<void> {
    const client = this.#link.client;
    if (client.era !== 'modern') {
      await client.unsubscribeResource({ uri });
      return;
    }
    this.#upstreamListens.get(uri)?.abort();
    this.#upstreamListens.delete(uri);
  }

  async #forward(method: string, params: Record<string, unknown>, ctx: ServerContext): Promise<object> {
    this.#enter();
    try {
      const { _meta: downstreamMeta, ...rest } = params as { _meta?: Record<string, unknown> };
      const meta = forwardedMeta(downstreamMeta);
      const upstreamParams = meta === undefined ? rest : { ...rest, _meta: meta };
      const client = this.#link.client;
      const options = {
        signal: ctx.signal,
        onprogress: (update: Parameters<typeof ctx.sendProgress>[0]) =>
          void ctx.sendProgress(update).catch(() => undefined),
        resetTimeoutOnProgress: true,
      };
      const task =
        (FORWARDED_TASK_METHODS.has(method) || (method === 'tools/call' && 'task' in rest)) &&
        forwardedTasks(client, this.#session?.protocolVersion) !== undefined;
      return await this.#link.run(ctx, () =>
        task
          ? forwardTask(client, method, upstreamParams, options)
          : client.request({ method, params: upstreamParams } as never, options),
      );
    } catch (error) {
      // A restarting upstream (stdio `restart`) fails what it owed with a `TransportLostError`, a
      // `ConnectionClosedError`: the downstream learns which upstream, and how it was lost.
      if (error instanceof ConnectionClosedError) throw peerLostError('upstream', this.#upstreamName, error);
      throw this.#upstreamLost ? peerLostError('upstream', this.#upstreamName) : error;
    } finally {
      this.#leave();
    }
  }

  #enter(): void {
    if (this.#inFlight++ === 0) {
      this.#idle = new Promise<void>((resolve) => {
        this.#resolveIdle = resolve;
      });
    }
  }

  #leave(): void {
    if (--this.#inFlight === 0) {
      // The error answer is written after the handler returns: let it go out first.
      const resolve = this.#resolveIdle;
      setTimeout(() => resolve?.(), 0);
    }
  }
}

/**
 * What a legacy (`initialize`) client of a shared bridge gets: a session of its own would share the
 * upstream's session state (subscriptions, log level, roots) with every other client.
 */
function sharedRefusal(upstreamName: string): McpError {
  return new McpError(
    ErrorCode.InvalidRequest,
    `Bridge: "${upstreamName}" is shared by every client of this bridge (shared), which is safe only for ` +
      '2026-07-28 (stateless) clients; connect with protocol version 2026-07-28, or run the bridge ' +
      'without shared (one upstream per session)',
    { bridge: true, side: 'downstream', name: upstreamName, option: 'shared' },
  );
}
