import { fetchRequester, type HttpRequester } from './requester.js';

/** The requester used when no `fetch` is given, with a way to release its connections. */
export interface DefaultRequester {
  requester: HttpRequester;
  close(): Promise<void>;
}

let undiciModule: Promise<typeof import('./undici-requester.js')> | undefined;

/**
 * Whether the runtime is Node itself. Bun and Deno also set `process.versions.node`, and so does
 * workerd (Cloudflare Workers, even without `nodejs_compat`: `process.versions.node` is "22.x"): each
 * has its own `fetch` and none gets undici (a Workers bundle maps undici to nothing, `browser` field).
 * Exported for tests only.
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

/**
 * Node gets undici's dispatcher (loaded by dynamic import, so bundles for browsers and Workers never
 * contain undici or `node:` modules); every other runtime gets its global `fetch`.
 */
export async function defaultRequester(): Promise<DefaultRequester> {
  if (isNodeRuntime()) {
    // Imported once per process: a dynamic import costs a module-graph walk even when cached.
    undiciModule ??= import('./undici-requester.js');
    const { createUndiciRequester } = await undiciModule;
    return createUndiciRequester();
  }
  return { requester: fetchRequester((url, init) => fetch(url, init)), close: async () => {} };
}
