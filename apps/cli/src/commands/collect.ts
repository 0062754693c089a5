import { sanitize } from '../output/sanitize.js';

/** Drains an async iterator (the client's page walkers) into an array. */
export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

/** The first line of a description, sanitized: tables show one line per row. */
export function firstLine(text: string | undefined): string {
  return sanitize((text ?? '').trim().split('\n')[0] ?? '');
}
