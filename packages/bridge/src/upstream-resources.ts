import { followUpstream } from './upstream-listen.js';
import type { UpstreamLink } from './upstream-link.js';

/**
 * The resources an upstream follows for one downstream session, in the upstream's era: a 2025 host's
 * `resources/subscribe` and the `resourceSubscriptions` of a 2026-07-28 host's `subscriptions/listen`
 * streams become `resources/subscribe` on a legacy upstream, a `subscriptions/listen` stream per URI on
 * a 2026-07-28 one. Updates come back through the `Client`'s `resourceUpdated` event (`UpstreamLink`).
 */
export class UpstreamResources {
  readonly #link: UpstreamLink;
  /** A 2026-07-28 upstream's `subscriptions/listen` stream per URI the downstream subscribed to. */
  readonly #upstreamListens = new Map<string, AbortController>();
  /** How many of a 2026-07-28 downstream's open `subscriptions/listen` streams watch each URI. */
  readonly #watchers = new Map<string, number>();

  constructor(link: UpstreamLink) {
    this.#link = link;
  }

  /** Ends every upstream stream (the session is over; a legacy upstream's subscriptions end with it). */
  close(): void {
    for (const listen of this.#upstreamListens.values()) listen.abort();
    this.#upstreamListens.clear();
  }

  /**
   * Follows `uri` upstream: `resources/subscribe` on a legacy upstream; a 2026-07-28 upstream has no such
   * method, so a `subscriptions/listen` stream for it (its updates reach the downstream through the
   * `Client`'s `resourceUpdated` event, like a legacy upstream's).
   */
  async subscribe(uri: string): Promise<void> {
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
  async listen<R>(params: unknown, subscribe: boolean, serve: () => Promise<R>): Promise<R> {
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
      await this.subscribe(uri);
    } catch (error) {
      this.#forget(uri);
      throw error;
    }
  }

  async #unwatch(uri: string): Promise<void> {
    if (this.#forget(uri) === 0) await this.unsubscribe(uri);
  }

  /** One watcher of `uri` fewer; how many are left. */
  #forget(uri: string): number {
    const left = (this.#watchers.get(uri) ?? 1) - 1;
    if (left > 0) this.#watchers.set(uri, left);
    else this.#watchers.delete(uri);
    return left;
  }

  async unsubscribe(uri: string): Promise<void> {
    const client = this.#link.client;
    if (client.era !== 'modern') {
      await client.unsubscribeResource({ uri });
      return;
    }
    this.#upstreamListens.get(uri)?.abort();
    this.#upstreamListens.delete(uri);
  }
}
