import { isNodeRuntime } from '@x/protocol/http';
import { fetchRequester, type HttpRequester } from './requester.js';

/** The requester used when no `fetch` is given, with a way to release its connections. */
export interface DefaultRequester {
  requester: HttpRequester;
  close(): Promise<void>;
}

let undiciModule: Promise<typeof import('./undici-requester.js')> | undefined;

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
