import { loadAdapter, loadServe } from './adapters/load-adapter.js';
import type { BenchSession, ServerHandle, ServerTarget } from './adapters/types.js';
import { serverCommand } from './server-command.js';
import type { SdkName, TransportName } from './types.js';

/** One session of `sdk` over `transport`, and how to stop everything it started. */
export interface OpenSession {
  session: BenchSession;
  close(): Promise<void>;
}

/**
 * Connects a client of `sdk` to its server in this process (in-memory, or a real loopback socket for
 * HTTP, legacy SSE and WebSocket); over stdio the server is a child process, as users run it.
 */
export async function openSession(transport: TransportName, sdk: SdkName): Promise<OpenSession> {
  const adapter = await loadAdapter(sdk);
  if (transport === 'in-memory') {
    const pair = await adapter.inMemory();
    const session = await pair.connect();
    return { session, close: () => session.close().then(pair.close) };
  }
  let server: ServerHandle | undefined;
  let target: ServerTarget;
  if (transport === 'stdio') {
    target = { transport, command: serverCommand({ sdk, transport, controlPort: 0 }) };
  } else {
    server = await (await loadServe(sdk))(transport);
    target = { transport, port: server.port };
  }
  const session = await adapter.connect(target);
  return { session, close: () => session.close().then(() => server?.close()) };
}
