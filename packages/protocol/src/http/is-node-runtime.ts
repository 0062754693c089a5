/**
 * Whether the runtime is Node itself. Bun and Deno also set `process.versions.node`, and so does
 * workerd (Cloudflare Workers, even without `nodejs_compat`: `process.versions.node` is "22.x"): each
 * has its own `fetch`, so an HTTP client transport loads undici only where this is true (a Workers
 * bundle maps undici to nothing, `browser` field).
 *
 * @example
 * ```ts
 * const fetcher = isNodeRuntime() ? await import('undici') : undefined;
 * ```
 */
export function isNodeRuntime(global: object = globalThis): boolean {
  const { process, navigator } = global as {
    process?: { versions?: { node?: string } };
    navigator?: { userAgent?: string };
  };
  return (
    typeof process?.versions?.node === 'string' &&
    !('Deno' in global) &&
    !('Bun' in global) &&
    navigator?.userAgent !== 'Cloudflare-Workers'
  );
}
