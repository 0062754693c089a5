// ESM resolve hook: only the conformance bundle's 'fs' import is redirected, every other module
// (including the server and client under test, which run in their own processes) sees the real 'fs'.
const SHIM = new URL('./fs-globsync.mjs', import.meta.url).href;

export async function resolve(specifier, context, next) {
  if (
    (specifier === 'fs' || specifier === 'node:fs') &&
    context.parentURL?.includes('/@modelcontextprotocol/conformance/')
  ) {
    return { url: SHIM, shortCircuit: true };
  }
  return next(specifier, context);
}
