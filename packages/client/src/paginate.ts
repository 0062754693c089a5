import { ErrorCode, McpError } from '@x/protocol/core';

/** One page of a paginated list (server/utilities/pagination). */
export interface Page<T> {
  items: readonly T[];
  nextCursor?: string | undefined;
}

/**
 * Walks every page, yielding items as pages arrive. Stops with an `McpError` after `maxPages` pages or
 * when the server repeats a cursor, so a faulty server cannot keep the caller looping forever.
 */
export async function* paginate<T>(
  fetchPage: (cursor: string | undefined) => Promise<Page<T>>,
  maxPages: number,
): AsyncGenerator<T, void, undefined> {
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let pages = 0; ; pages++) {
    if (pages >= maxPages) {
      throw new McpError(ErrorCode.InternalError, `Pagination stopped after ${maxPages} pages (maxPages)`);
    }
    const page = await fetchPage(cursor);
    yield* page.items;
    cursor = page.nextCursor;
    if (cursor === undefined) return;
    if (seen.has(cursor)) {
      throw new McpError(ErrorCode.InternalError, `Server repeated the pagination cursor "${cursor}"`);
    }
    seen.add(cursor);
  }
}
