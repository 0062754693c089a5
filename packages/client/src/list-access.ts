import type {
  ClientRequestMap,
  ListToolsResult,
  Prompt,
  Resource,
  ResourceTemplate,
  Tool,
} from '@x/protocol/core';
import type { ClientRequestOptions } from './client-options.js';
import type { EraSession } from './era-session.js';
import { paginate } from './paginate.js';
import { ResultCache } from './result-cache.js';
import type { ToolRegistry } from './tool-registry.js';

export type CacheableMethod =
  | 'tools/list'
  | 'prompts/list'
  | 'resources/list'
  | 'resources/templates/list'
  | 'resources/read';

/** Item type and result field of each paginated list. */
interface Lists {
  'tools/list': { item: Tool; field: 'tools' };
  'prompts/list': { item: Prompt; field: 'prompts' };
  'resources/list': { item: Resource; field: 'resources' };
  'resources/templates/list': { item: ResourceTemplate; field: 'resourceTemplates' };
}
export type ListMethod = keyof Lists;

const FIELDS: { readonly [M in ListMethod]: Lists[M]['field'] } = {
  'tools/list': 'tools',
  'prompts/list': 'prompts',
  'resources/list': 'resources',
  'resources/templates/list': 'resourceTemplates',
};

export interface ListAccessOptions {
  session: () => EraSession;
  cache: ResultCache;
  caching: boolean;
  tools: ToolRegistry;
  maxPages: number;
  warn: (message: string) => void;
}

/**
 * The cacheable reads (lists and `resources/read`) and the page walkers over the lists: results are
 * served from the `ResultCache` while fresh, and `tools/list` pages feed the `ToolRegistry`.
 */
export class ListAccess {
  readonly #options: ListAccessOptions;

  constructor(options: ListAccessOptions) {
    this.#options = options;
  }

  async fetch<M extends CacheableMethod>(
    method: M,
    discriminator: string | undefined,
    params: object | undefined,
    options: ClientRequestOptions | undefined,
  ): Promise<ClientRequestMap[M]['result']> {
    const { session, cache, caching } = this.#options;
    const live = session();
    const key = caching ? ResultCache.keyOf(method, discriminator, params) : undefined;
    if (options?.fresh !== true) {
      const hit = cache.get(key);
      if (hit !== undefined) return hit as ClientRequestMap[M]['result'];
    }
    let result = await live.request(method, params as Record<string, unknown> | undefined, options);
    if (method === 'tools/list')
      result = this.#recordTools(result as ListToolsResult, discriminator) as typeof result;
    cache.store(key, result);
    return result;
  }

  /** Every item of a list, page by page, at most `maxPages` pages. */
  iterate<M extends ListMethod>(
    method: M,
    options: ClientRequestOptions | undefined,
  ): AsyncGenerator<Lists[M]['item'], void, undefined> {
    const field = FIELDS[method];
    return paginate(async (cursor) => {
      const page = await this.fetch(method, cursor, cursor === undefined ? undefined : { cursor }, options);
      return {
        items: (page as Record<string, unknown>)[field] as Lists[M]['item'][],
        nextCursor: page.nextCursor,
      };
    }, this.#options.maxPages);
  }

  /** Collects a whole list (for `autoRefresh`). */
  async all<M extends ListMethod>(method: M): Promise<Lists[M]['item'][]> {
    const items: Lists[M]['item'][] = [];
    for await (const item of this.iterate(method, undefined)) items.push(item);
    return items;
  }

  #recordTools(result: ListToolsResult, cursor: string | undefined): ListToolsResult {
    const tools = this.#options.tools.record(result.tools, cursor === undefined, this.#options.warn);
    return tools === result.tools ? result : { ...result, tools };
  }
}
