import type { Client } from '@x/client';
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

export interface TranslatingSessionOptions {
  readonly upstreamName: string;
  /** The `serverInfo` shown downstream; default the upstream's. */
  readonly info: Implementation | undefined;
  readonly report: (error: Error) => void;
}

/**
 * One downstream session of a translating bridge: a `Server` of its own in front of the upstream
 * `Client` opened for it (one upstream per downstream session, so no two clients share an upstream's
 * state, logs or input requests). Requests go up with the downstream request's signal and progress;
 * the upstream's input requests (elicitation, sampling, roots) and logs go down on the downstream
 * request they belong to.
 */
export class TranslatingSession {
  readonly #client: Client;
  readonly #upstreamName: string;
  readonly #server: Server;
  /** Downstream requests being served, newest last: where the upstream's input requests and logs go. */
  readonly #active: ServerContext[] = [];
  #session: ServerSession | undefined;
  #upstreamLost = false;
  #ended: Promise<void> | undefined;
  readonly #closed: Promise<void>;
  #resolveClosed!: () => void;
  /** Settles when no forwarded request is left unanswered (the last answers went out). */
  #idle: Promise<void> = Promise.resolve();
  #inFlight = 0;
  #resolveIdle: (() => void) | undefined;

  constructor(client: Client, options: TranslatingSessionOptions) {
    const { upstreamName, info } = options;
    this.#client = client;
    this.#upstreamName = upstreamName;
    // The upstream's faults that reach no request (a stdio server's crash, a failed re-handshake).
    client.onerror = options.report;
    this.#closed = new Promise<void>((resolve) => {
      this.#resolveClosed = resolve;
    });
    const upstreamInfo = client.serverInfo;
    const instructions = client.instructions;
    this.#server = new Server(info ?? upstreamInfo ?? { name: 'x-mcp-bridge', version: '0.0.0' }, {
      capabilities: downstreamCapabilities(client.serverCapabilities),
      ...(instructions === undefined ? {} : { instructions }),
    });
    this.#route();
    this.#relayUpstreamEvents();
  }

  get closed(): Promise<void> {
    return this.#closed;
  }

  get upstream(): Client {
    return this.#client;
  }

  /** Serves `downstream`; the session ends when either side closes. */
  async serve(downstream: Transport): Promise<void> {
    this.#session = await this.#server.connect(downstream);
    // The engine's own close handling first, then the upstream goes with it (a stdio child is stopped).
    const engineOnClose = downstream.onclose;
    downstream.onclose = () => {
      engineOnClose?.();
      void this.close();
    };
    this.#client.onclose = () => {
      this.#upstreamLost = true;
      // The requests it owed are answered (with `peerLostError`) before the downstream goes.
      void this.#idle.then(() => this.close());
    };
  }

  close(): Promise<void> {
    this.#ended ??= Promise.allSettled([this.#server.close(), this.#client.close()]).then(() =>
      this.#resolveClosed(),
    );
    return this.#ended;
  }

  #route(): void {
    const capabilities = this.#client.serverCapabilities ?? {};
    for (const [capability, methods] of Object.entries(FORWARDED_METHODS)) {
      if (capabilities[capability as keyof typeof FORWARDED_METHODS] === undefined) continue;
      for (const method of methods) {
        this.#server.setRequestHandler(method, (params, ctx) => this.#forward(method, params, ctx));
      }
    }
    const subscribe = capabilities.resources?.subscribe === true;
    const upstreamLogs = capabilities.logging !== undefined && this.#client.era === 'legacy';
    // `resources/(un)subscribe` and `logging/setLevel` are answered by the downstream `Server`; the
    // upstream follows first, so `notifications/resources/updated` and log messages have a source.
    this.#server.use({
      incomingRequest: async (request, _ctx, next) => {
        const params = request.params as { uri?: unknown; level?: unknown } | undefined;
        const uri = params?.uri;
        if (subscribe && typeof uri === 'string' && request.method === 'resources/subscribe') {
          await this.#client.subscribeResource({ uri });
        } else if (subscribe && typeof uri === 'string' && request.method === 'resources/unsubscribe') {
          await this.#client.unsubscribeResource({ uri });
        } else if (
          upstreamLogs &&
          request.method === 'logging/setLevel' &&
          typeof params?.level === 'string'
        ) {
          await this.#client.setLoggingLevel(params.level as LoggingLevel);
        }
        return next(request);
      },
    });
  }

  async #forward(method: string, params: Record<string, unknown>, ctx: ServerContext): Promise<object> {
    this.#active.push(ctx);
    this.#enter();
    try {
      const { _meta: downstreamMeta, ...rest } = params as { _meta?: Record<string, unknown> };
      const meta = forwardedMeta(downstreamMeta);
      const upstreamParams = meta === undefined ? rest : { ...rest, _meta: meta };
      return await this.#client.request({ method, params: upstreamParams } as never, {
        signal: ctx.signal,
        onprogress: (update) => void ctx.sendProgress(update).catch(() => undefined),
        resetTimeoutOnProgress: true,
      });
    } catch (error) {
      // A restarting upstream (stdio `restart`) fails what it owed with a `TransportLostError`, a
      // `ConnectionClosedError`: the downstream learns which upstream, and how it was lost.
      if (error instanceof ConnectionClosedError) throw peerLostError('upstream', this.#upstreamName, error);
      throw this.#upstreamLost ? peerLostError('upstream', this.#upstreamName) : error;
    } finally {
      this.#active.splice(this.#active.indexOf(ctx), 1);
      this.#leave();
    }
  }

  #relayUpstreamEvents(): void {
    const client = this.#client;
    client.on('toolsListChanged', () => this.#server.sendToolListChanged());
    client.on('promptsListChanged', () => this.#server.sendPromptListChanged());
    client.on('resourcesListChanged', () => this.#server.sendResourceListChanged());
    client.on('resourceUpdated', ({ uri }) => this.#server.sendResourceUpdated(uri));
    client.on('log', ({ level, data, logger }) => {
      const ctx = this.#active.at(-1);
      if (ctx !== undefined) void ctx.log(level, data, logger).catch(() => undefined);
      else if (this.#session?.legacy !== undefined) {
        void this.#session
          .notification({
            method: 'notifications/message',
            params: { level, data, ...(logger ? { logger } : {}) },
          })
          .catch(() => undefined);
      }
    });
    client.setElicitationHandler((params) => this.#current('elicitation/create').elicit(params), {
      form: true,
      url: true,
    });
    client.setSamplingHandler((params) => this.#current('sampling/createMessage').sample(params));
    client.setRootsHandler(() => this.#current('roots/list').listRoots());
  }

  /** The downstream request an upstream input request belongs to (the one in flight, newest first). */
  #current(method: string): ServerContext {
    const ctx = this.#active.at(-1);
    if (ctx === undefined) {
      throw new McpError(
        ErrorCode.InternalError,
        `Bridge: ${method} arrived outside any downstream request; the bridge has no client to ask`,
      );
    }
    return ctx;
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
