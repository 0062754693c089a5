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
import { UpstreamResources } from './upstream-resources.js';
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
  /** What the upstream follows for this session's host: its subscribed URIs, its listen streams. */
  readonly #resources: UpstreamResources;
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
    this.#resources = new UpstreamResources(link);
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
      taskStatus: (params) => {
        // Only where this session forwards 2025-11-25 tasks: the host knows the upstream's task ids.
        if (
          this.#session === undefined ||
          forwardedTasks(client, this.#session.protocolVersion) === undefined
        ) {
          return;
        }
        void this.#session
          .notification({ method: 'notifications/tasks/status', params: { ...params } })
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
    this.#resources.close();
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
          return this.#resources.listen(request.params, subscribe, () => next(request));
        }
        if (request.method === 'initialize') return this.#initialize(() => next(request));
        if (subscribe && typeof uri === 'string' && request.method === 'resources/subscribe') {
          await this.#resources.subscribe(uri);
        } else if (subscribe && typeof uri === 'string' && request.method === 'resources/unsubscribe') {
          await this.#resources.unsubscribe(uri);
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
