import type { Client } from '@x/client';
import { ErrorCode, type LoggingLevel, McpError, type TaskStatusNotificationParams } from '@x/protocol/core';
import type { ServerContext } from '@x/server';
import { bridgeLimitError } from './bridge-errors.js';
import { followUpstream, type ListenFilter } from './upstream-listen.js';

/** What a downstream session hears from its upstream outside any request it forwarded. */
export interface UpstreamListener {
  toolsListChanged(): void;
  promptsListChanged(): void;
  resourcesListChanged(): void;
  resourceUpdated(uri: string): void;
  /** A log that belongs to no forwarded request (a legacy downstream gets it as a session notification). */
  log(params: { level: LoggingLevel; data: unknown; logger?: string | undefined }): void;
  /**
   * A task of the upstream changed status (`notifications/tasks/status`, 2025-11-25): relayed where the
   * bridge forwards that revision's tasks, so a host polling less often still hears of it.
   */
  taskStatus(params: TaskStatusNotificationParams): void;
  /** The upstream is gone for good (closed, or out of restarts). */
  lost(): void;
}

export interface UpstreamLinkOptions {
  readonly upstreamName: string;
  /**
   * Shared by several downstream sessions: requests go upstream one at a time, so whatever the
   * upstream asks or logs meanwhile belongs to exactly one downstream request (a legacy upstream does
   * not say which request it asks for). At most `maxWaitingRequests` wait their turn.
   */
  readonly shared: boolean;
  readonly maxWaitingRequests: number;
  /** How long a 2026-07-28 upstream may take to acknowledge the list-change stream (`upstreamConnectTimeoutMs`). */
  readonly connectTimeoutMs: number;
  /** The upstream's faults that reach no request (a stdio server's crash, a failed re-handshake). */
  readonly report: (error: Error) => void;
}

/**
 * An upstream `Client` and the downstream sessions it serves: it routes the upstream's input requests
 * (elicitation, sampling, roots) and logs to the downstream request they belong to, and its
 * list-changed and resource notifications to every session listening.
 */
export class UpstreamLink {
  readonly client: Client;
  readonly shared: boolean;
  readonly #options: UpstreamLinkOptions;
  /** Downstream requests being served upstream, newest last. */
  readonly #active: ServerContext[] = [];
  readonly #listeners = new Set<UpstreamListener>();
  /** Settles when the request ahead in the shared queue is done. */
  #turn: Promise<void> = Promise.resolve();
  #waiting = 0;
  /** Ends the 2026-07-28 upstream's `subscriptions/listen` stream for list changes. */
  readonly #listChanges = new AbortController();
  #following: Promise<void> | undefined;
  /** Settles when the upstream is gone for good. */
  readonly lost: Promise<void>;

  constructor(client: Client, options: UpstreamLinkOptions) {
    this.client = client;
    this.shared = options.shared;
    this.#options = options;
    client.onerror = options.report;
    let resolveLost!: () => void;
    this.lost = new Promise<void>((resolve) => {
      resolveLost = resolve;
    });
    client.onclose = () => {
      resolveLost();
      for (const listener of [...this.#listeners]) listener.lost();
    };
    this.#relay();
  }

  /** Closes the upstream `Client` (and so its transport: a spawned process is stopped). */
  close(): Promise<void> {
    this.#listChanges.abort();
    return this.client.close();
  }

  /**
   * A 2026-07-28 upstream sends list changes only on a `subscriptions/listen` stream: one is opened for
   * the lists it declares `listChanged` for, and its notifications reach every session listening like a
   * legacy upstream's session notifications. Opened once, on the first call (a legacy host's
   * `initialize`, a 2026-07-28 host's `subscriptions/listen`), and closed with the link. Resolves once
   * acknowledged; a refusal, or no acknowledgement within `connectTimeoutMs`, is reported (`report`)
   * and the sessions go on without.
   */
  followListChanges(): Promise<void> {
    this.#following ??= this.#followListChanges();
    return this.#following;
  }

  async #followListChanges(): Promise<void> {
    const client = this.client;
    if (client.era !== 'modern') return;
    const capabilities = client.serverCapabilities ?? {};
    const filter: ListenFilter = {};
    if (capabilities.tools?.listChanged === true) filter.toolsListChanged = true;
    if (capabilities.prompts?.listChanged === true) filter.promptsListChanged = true;
    if (capabilities.resources?.listChanged === true) filter.resourcesListChanged = true;
    if (Object.keys(filter).length === 0) return;
    const { connectTimeoutMs, upstreamName } = this.#options;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        reject(
          new McpError(
            ErrorCode.ConnectionClosed,
            `Bridge: the upstream "${upstreamName}" did not acknowledge subscriptions/listen for list changes within ${connectTimeoutMs} ms (upstreamConnectTimeoutMs); list changes are not relayed`,
            {
              bridge: true,
              side: 'upstream',
              name: upstreamName,
              option: 'upstreamConnectTimeoutMs',
              limit: connectTimeoutMs,
            },
          ),
        );
      }, connectTimeoutMs);
    });
    try {
      await Promise.race([followUpstream(client, filter, this.#listChanges.signal), timedOut]);
    } catch (error) {
      this.#listChanges.abort();
      this.#options.report(error instanceof Error ? error : new Error(String(error)));
    } finally {
      clearTimeout(timer);
    }
  }

  listen(listener: UpstreamListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Runs `forward` with `ctx` as where upstream input requests and logs go (shared: in turn). */
  async run<T>(ctx: ServerContext, forward: () => Promise<T>): Promise<T> {
    if (!this.shared) return this.#within(ctx, forward);
    const { maxWaitingRequests, upstreamName } = this.#options;
    if (this.#waiting >= maxWaitingRequests) {
      throw bridgeLimitError('upstream', upstreamName, 'maxInFlightRequests', maxWaitingRequests);
    }
    this.#waiting++;
    const ahead = this.#turn;
    let done!: () => void;
    this.#turn = new Promise<void>((resolve) => {
      done = resolve;
    });
    try {
      await ahead;
      ctx.signal.throwIfAborted();
      return await this.#within(ctx, forward);
    } finally {
      this.#waiting--;
      done();
    }
  }

  async #within<T>(ctx: ServerContext, forward: () => Promise<T>): Promise<T> {
    this.#active.push(ctx);
    try {
      return await forward();
    } finally {
      this.#active.splice(this.#active.indexOf(ctx), 1);
    }
  }

  #relay(): void {
    const client = this.client;
    const each = (notify: (listener: UpstreamListener) => void): void => {
      for (const listener of this.#listeners) notify(listener);
    };
    client.on('toolsListChanged', () => each((l) => l.toolsListChanged()));
    client.on('promptsListChanged', () => each((l) => l.promptsListChanged()));
    client.on('resourcesListChanged', () => each((l) => l.resourcesListChanged()));
    client.on('resourceUpdated', ({ uri }) => each((l) => l.resourceUpdated(uri)));
    // A shared upstream's tasks belong to one host each, and the notification does not say whose.
    client.on('taskStatus', (params) => {
      if (!this.shared) each((l) => l.taskStatus(params));
    });
    client.on('log', (params) => {
      const ctx = this.#active.at(-1);
      if (ctx !== undefined) void ctx.log(params.level, params.data, params.logger).catch(() => undefined);
      // Shared: a log outside every request belongs to no one client; it is not broadcast.
      else if (!this.shared) each((l) => l.log(params));
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
}
