/**
 * The base URI of a document without `$id`. Relative `$id`s and refs resolve against it; it uses
 * a private scheme so that nothing can ever be mistaken for a fetchable location.
 */
export const DEFAULT_BASE_URI = 'x-mcp-schema://local/schema.json';

/** RFC 3986 reference resolution via the WHATWG URL parser, available on every JS runtime. */
export function resolveUri(reference: string, base: string): string | undefined {
  try {
    return new URL(reference, base).href;
  } catch {
    return undefined;
  }
}

/** Splits an absolute URI into the document URI and the decoded fragment (`''` if none). */
export function splitFragment(uri: string): { document: string; fragment: string } {
  const hash = uri.indexOf('#');
  if (hash === -1) return { document: uri, fragment: '' };
  return { document: uri.slice(0, hash), fragment: decodeURIComponent(uri.slice(hash + 1)) };
}
