import type { McpServer } from '@x/server';

/**
 * The built example server of `@x/examples` (a private app without type declarations or an exports map,
 * so its built file is imported by path). Loaded only by `serve`, so the client commands never pay for
 * the server and its schemas at startup.
 */
const EVERYTHING_SERVER = '@x/examples/dist/everything-server.js';

/** Thrown when the example server is not built or lacks `createEverythingServer`. */
export class ExampleServerUnavailableError extends Error {
  override readonly name = 'ExampleServerUnavailableError';
}

export async function loadEverythingServer(): Promise<McpServer> {
  let module: { createEverythingServer?: unknown };
  try {
    // A variable specifier: TypeScript must not try to type a module that ships no declarations.
    const specifier: string = EVERYTHING_SERVER;
    module = (await import(specifier)) as { createEverythingServer?: unknown };
  } catch (error) {
    throw new ExampleServerUnavailableError(
      `the example server is not available (${EVERYTHING_SERVER}: ${error instanceof Error ? error.message : String(error)}); build it with: pnpm turbo run build --filter=@x/cli...`,
      { cause: error },
    );
  }
  if (typeof module.createEverythingServer !== 'function') {
    throw new ExampleServerUnavailableError(`${EVERYTHING_SERVER} does not export createEverythingServer()`);
  }
  return (module.createEverythingServer as () => McpServer)();
}
