import { ErrorCode, type Era, McpError } from '@x/protocol/core';
import type { CacheHint } from '../server-options.js';

/**
 * One paginated list (`tools/list`, `prompts/list`, `resources/list`, `resources/templates/list`):
 * pages are built once per change and per era, not per request (spec: server/utilities/pagination;
 * 2026-07-28 server/utilities/caching "same cacheScope on every page"). Cursors are opaque to clients
 * (`base64("o:<offset>")`); one the server did not issue is -32602.
 */
export class ListPages<T> {
  readonly #key: string;
  readonly #pageSize: number;
  readonly #hint: CacheHint;
  readonly #items: () => readonly T[];
  #snapshot: readonly T[] | undefined;
  readonly #pages = new Map<string, Record<string, unknown>>();

  constructor(options: {
    key: string;
    pageSize: number | undefined;
    hint: CacheHint;
    items: () => readonly T[];
  }) {
    this.#key = options.key;
    this.#pageSize = options.pageSize ?? Number.POSITIVE_INFINITY;
    this.#hint = options.hint;
    this.#items = options.items;
  }

  /** Drops every built page (the list changed). */
  invalidate(): void {
    this.#snapshot = undefined;
    this.#pages.clear();
  }

  /** The page for `cursor` in the shape of `era`; the returned object is shared, never mutate it. */
  page(cursor: unknown, era: Era): Record<string, unknown> {
    const cacheKey = `${era}|${typeof cursor === 'string' ? cursor : ''}`;
    const cached = this.#pages.get(cacheKey);
    if (cached !== undefined) return cached;
    this.#snapshot ??= this.#items();
    const items = this.#snapshot;
    const offset = cursor === undefined ? 0 : decodeCursor(cursor, items.length);
    const end = Math.min(items.length, offset + this.#pageSize);
    const page: Record<string, unknown> = { [this.#key]: items.slice(offset, end) };
    if (end < items.length) page['nextCursor'] = encodeCursor(end);
    if (era === 'modern') {
      page['ttlMs'] = this.#hint.ttlMs;
      page['cacheScope'] = this.#hint.cacheScope;
    }
    this.#pages.set(cacheKey, page);
    return page;
  }
}

function encodeCursor(offset: number): string {
  return btoa(`o:${offset}`);
}

function decodeCursor(cursor: unknown, length: number): number {
  if (typeof cursor === 'string') {
    try {
      const text = atob(cursor);
      const match = /^o:(\d{1,9})$/.exec(text);
      const offset = match === null ? Number.NaN : Number(match[1]);
      // Offsets up to the current length stay valid across a change (the page is then shorter or empty).
      if (offset > 0 && offset <= length) return offset;
    } catch {
      // not base64: falls through to the error
    }
  }
  throw new McpError(ErrorCode.InvalidParams, `Invalid cursor: ${String(cursor)}`);
}
