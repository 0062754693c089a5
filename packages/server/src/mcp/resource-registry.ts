import {
  type Annotations,
  ErrorCode,
  type Era,
  type Icon,
  McpError,
  type ReadResourceResult,
  type Resource,
  type ResourceTemplate as ResourceTemplateDefinition,
} from '@x/protocol/core';
import type { ServerContext } from '../server-context.js';
import type { CacheHint } from '../server-options.js';
import type { UriTemplateVariables } from '../uri-template.js';
import { ListPages } from './list-pages.js';
import { type HandleTarget, RegistryHandle } from './registry-handle.js';
import { checkScopes, requiredScopesOf } from './required-scopes.js';
import type { ResourceTemplate } from './resource-template.js';

/**
 * How a resource (or template) is described in `resources/list` / `resources/templates/list`.
 *
 * @example
 * ```ts
 * server.registerResource('readme', 'file:///README.md', {
 *   title: 'Project README',
 *   mimeType: 'text/markdown',
 *   annotations: { audience: ['user', 'assistant'], priority: 0.8 },
 *   cache: { ttlMs: 30_000, cacheScope: 'public' },
 * }, async (uri) => ({ contents: [{ uri, text: await readFile('README.md', 'utf8') }] }));
 * ```
 */
export interface ResourceMetadata {
  title?: string | undefined;
  description?: string | undefined;
  mimeType?: string | undefined;
  annotations?: Annotations | undefined;
  icons?: Icon[] | undefined;
  size?: number | undefined;
  _meta?: Record<string, unknown> | undefined;
  /** 2026-07-28 cache hint of `resources/read` for this resource. Default `{ ttlMs: 0, cacheScope: 'private' }`. */
  cache?: CacheHint | undefined;
  /**
   * OAuth scopes a caller's token must carry for `resources/read` of this resource (every URI of a
   * template): otherwise -32600 `insufficient_scope` before `read` runs; unchecked without `authInfo`.
   * Not published in the lists.
   */
  requiredScopes?: readonly string[] | undefined;
}

/**
 * Reads a fixed-URI resource for `resources/read`.
 *
 * @example
 * ```ts
 * const readClock: ReadResourceCallback = (uri) => ({
 *   contents: [{ uri, mimeType: 'text/plain', text: new Date().toISOString() }],
 * });
 * server.registerResource('clock', 'time://now', {}, readClock);
 * ```
 */
export type ReadResourceCallback = (
  uri: string,
  ctx: ServerContext,
) => ReadResourceResult | Promise<ReadResourceResult>;
/**
 * Reads a resource behind a `ResourceTemplate`; `variables` come from matching the URI.
 *
 * @example
 * ```ts
 * const readUser: ReadTemplateCallback = (uri, { id }) => ({
 *   contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(users.get(String(id)) ?? null) }],
 * });
 * server.registerResource('user', new ResourceTemplate('users://{id}'), {}, readUser);
 * ```
 */
export type ReadTemplateCallback = (
  uri: string,
  variables: UriTemplateVariables,
  ctx: ServerContext,
) => ReadResourceResult | Promise<ReadResourceResult>;

/**
 * The handle `registerResource` returns.
 *
 * @example
 * ```ts
 * const log = server.registerResource('log', 'file:///var/log/app.log', { mimeType: 'text/plain' }, read);
 * watcher.on('change', () => log.notifyUpdated()); // notifications/resources/updated to subscribers
 * ```
 */
/** What `RegisteredResource.update` may change. */
type ResourceUpdate = ResourceMetadata & { name?: string | undefined };

export interface RegisteredResource {
  readonly name: string;
  readonly enabled: boolean;
  enable(): void;
  disable(): void;
  update(changes: ResourceUpdate): void;
  remove(): void;
  /** Tells subscribed clients that the content changed (fixed resources: its URI; templates: pass one). */
  notifyUpdated(uri?: string): void;
}

interface Entry {
  name: string;
  uri: string | undefined;
  template: ResourceTemplate | undefined;
  metadata: ResourceMetadata;
  read: ReadResourceCallback | ReadTemplateCallback;
  enabled: boolean;
  /** `metadata.requiredScopes`, checked; undefined when none. */
  scopes: readonly string[] | undefined;
}

const DEFAULT_READ_HINT: CacheHint = { ttlMs: 0, cacheScope: 'private' };

/** Fixed resources and URI templates of one `McpServer`. */
export class ResourceRegistry implements HandleTarget<Entry, ResourceUpdate> {
  readonly #entries = new Map<string, Entry>();
  readonly #byUri = new Map<string, Entry>();
  readonly resourcePages: ListPages<Resource>;
  readonly templatePages: ListPages<ResourceTemplateDefinition>;
  readonly #changed: () => void;
  readonly #updated: (uri: string) => void;

  constructor(options: {
    pageSize: number | undefined;
    hints: { resources: CacheHint; templates: CacheHint };
    changed: () => void;
    updated: (uri: string) => void;
  }) {
    this.#changed = options.changed;
    this.#updated = options.updated;
    this.resourcePages = new ListPages<Resource>({
      key: 'resources',
      pageSize: options.pageSize,
      hint: options.hints.resources,
      items: () =>
        this.#enabled()
          .filter((e) => e.uri !== undefined)
          .map(describeResource),
    });
    this.templatePages = new ListPages<ResourceTemplateDefinition>({
      key: 'resourceTemplates',
      pageSize: options.pageSize,
      hint: options.hints.templates,
      items: () =>
        this.#enabled()
          .filter((e) => e.template !== undefined)
          .map(describeTemplate),
    });
  }

  get hasTemplateLists(): boolean {
    return this.#enabled().some((e) => e.template?.list !== undefined);
  }

  register(entry: Omit<Entry, 'enabled' | 'scopes'>): RegisteredResource {
    if (this.#entries.has(entry.name)) throw new Error(`Resource "${entry.name}" is already registered`);
    if (entry.uri !== undefined && this.#byUri.has(entry.uri)) {
      throw new Error(`Resource URI "${entry.uri}" is already registered`);
    }
    const scopes = requiredScopesOf(entry.metadata.requiredScopes, `Resource "${entry.name}"`);
    const full: Entry = { ...entry, enabled: true, scopes };
    this.#entries.set(entry.name, full);
    if (full.uri !== undefined) this.#byUri.set(full.uri, full);
    this.#touch();
    return new ResourceHandle(this, full);
  }

  template(name: string): ResourceTemplate | undefined {
    const entry = this.#entries.get(name);
    return entry?.enabled === true ? entry.template : undefined;
  }

  /** The template whose URI template text is `uriTemplate` (completion refs name templates by it). */
  templateByUri(uriTemplate: string): ResourceTemplate | undefined {
    for (const entry of this.#entries.values()) {
      if (entry.enabled && entry.template?.uriTemplate.template === uriTemplate) return entry.template;
    }
    return undefined;
  }

  /** `resources/list`: the cached fixed part, plus the template `list` callbacks when there are any. */
  async list(cursor: unknown, ctx: ServerContext): Promise<Record<string, unknown>> {
    const page = this.resourcePages.page(cursor, ctx.era);
    if (cursor !== undefined || !this.hasTemplateLists) return page;
    const listed: Resource[] = [...(page['resources'] as Resource[])];
    for (const entry of this.#enabled()) {
      if (entry.template?.list === undefined) continue;
      const { resources } = await entry.template.list(ctx);
      for (const resource of resources) listed.push({ ...describeMetadata(entry.metadata), ...resource });
    }
    return { ...page, resources: listed };
  }

  /**
   * `resources/read`: an exact URI first, then the templates in registration order. Unknown URI:
   * -32002 on legacy, -32602 on 2026-07-28 (spec 2026-07-28 server/resources "Error Handling"), both
   * with `data.uri`.
   */
  async read(params: Record<string, unknown>, ctx: ServerContext): Promise<object> {
    const uri = params['uri'];
    if (typeof uri !== 'string')
      throw new McpError(ErrorCode.InvalidParams, 'resources/read needs a string uri');
    const found = this.#resolve(uri);
    if (found === undefined) throw resourceNotFound(ctx.era, uri);
    const { entry, variables } = found;
    checkScopes(entry.scopes, ctx);
    const result =
      variables === undefined
        ? await (entry.read as ReadResourceCallback)(uri, ctx)
        : await (entry.read as ReadTemplateCallback)(uri, variables, ctx);
    return withHint(result, entry.metadata, ctx.era);
  }

  /** The `requiredScopes` of the resource `resources/read` would serve for `uri`. */
  scopesOf(uri: string): readonly string[] | undefined {
    return this.#resolve(uri)?.entry.scopes;
  }

  /** An exact URI first, then the templates in registration order. */
  #resolve(uri: string): { entry: Entry; variables: UriTemplateVariables | undefined } | undefined {
    const fixed = this.#byUri.get(uri);
    if (fixed?.enabled) return { entry: fixed, variables: undefined };
    for (const entry of this.#entries.values()) {
      if (!entry.enabled || entry.template === undefined) continue;
      const variables = entry.template.uriTemplate.match(uri);
      if (variables !== undefined) return { entry, variables };
    }
    return undefined;
  }

  nameOf(entry: Entry): string {
    return entry.name;
  }

  isEnabled(entry: Entry): boolean {
    return entry.enabled;
  }

  update(entry: Entry, changes: ResourceUpdate): Entry {
    const { name, ...metadata } = changes;
    const next = { ...entry.metadata, ...metadata };
    const scopes = requiredScopesOf(next.requiredScopes, `Resource "${name ?? entry.name}"`);
    if (name !== undefined && name !== entry.name) {
      if (this.#entries.has(name)) throw new Error(`Resource "${name}" is already registered`);
      this.#entries.delete(entry.name);
      entry.name = name;
      this.#entries.set(name, entry);
    }
    entry.scopes = scopes;
    entry.metadata = next;
    this.#touch();
    return entry;
  }

  setEnabled(entry: Entry, enabled: boolean): void {
    if (entry.enabled === enabled) return;
    entry.enabled = enabled;
    this.#touch();
  }

  remove(entry: Entry): void {
    if (this.#entries.get(entry.name) !== entry) return;
    this.#entries.delete(entry.name);
    if (entry.uri !== undefined) this.#byUri.delete(entry.uri);
    this.#touch();
  }

  updated(uri: string): void {
    this.#updated(uri);
  }

  #enabled(): Entry[] {
    return [...this.#entries.values()].filter((e) => e.enabled);
  }

  #touch(): void {
    this.resourcePages.invalidate();
    this.templatePages.invalidate();
    this.#changed();
  }
}

/** The not-found error of each era. */
function resourceNotFound(era: Era, uri: string): McpError {
  const code = era === 'modern' ? ErrorCode.InvalidParams : ErrorCode.ResourceNotFound;
  return new McpError(code, `Resource not found: ${uri}`, { uri });
}

function withHint(result: ReadResourceResult, metadata: ResourceMetadata, era: Era): ReadResourceResult {
  if (era !== 'modern' || result.ttlMs !== undefined) return result;
  const hint = metadata.cache ?? DEFAULT_READ_HINT;
  return { ...result, ttlMs: hint.ttlMs, cacheScope: hint.cacheScope };
}

function describeMetadata(metadata: ResourceMetadata): Partial<Resource> {
  const out: Record<string, unknown> = {};
  for (const key of ['title', 'description', 'mimeType', 'annotations', 'icons', 'size', '_meta'] as const) {
    if (metadata[key] !== undefined) out[key] = metadata[key];
  }
  return out as Partial<Resource>;
}

function describeResource(entry: Entry): Resource {
  return { uri: entry.uri!, name: entry.name, ...describeMetadata(entry.metadata) } as Resource;
}

function describeTemplate(entry: Entry): ResourceTemplateDefinition {
  const { size: _size, ...metadata } = describeMetadata(entry.metadata);
  return {
    uriTemplate: entry.template!.uriTemplate.template,
    name: entry.name,
    ...metadata,
  } as ResourceTemplateDefinition;
}

/** A resource's handle: the shared one plus `notifyUpdated`. */
class ResourceHandle extends RegistryHandle<Entry, ResourceUpdate> implements RegisteredResource {
  readonly #registry: ResourceRegistry;

  constructor(registry: ResourceRegistry, entry: Entry) {
    super(registry, entry);
    this.#registry = registry;
  }

  notifyUpdated(uri?: string): void {
    const target = uri ?? this.key.uri;
    if (target === undefined)
      throw new Error(`Resource "${this.key.name}" is a template: pass the URI that changed`);
    this.#registry.updated(target);
  }
}
