import type { ParsedArgs } from '../args/parsed-args.js';
import { UsageError } from '../args/usage-error.js';
import { ExitCode } from '../exit-codes.js';
import { ConnectError } from '../session/connect-error.js';
import type { Terminal } from '../output/terminal.js';
import { loadEverythingServer } from './load-everything-server.js';
import { readServeAuth } from './serve-auth.js';
import type { ListeningServer } from './listening-server.js';
import { serveGrpc } from './serve-grpc.js';
import { type ServeOptions, serveHttp, serveSse, serveStdio, serveWs } from './serve-transports.js';

const TRANSPORTS = {
  http: { start: serveHttp, label: 'Streamable HTTP' },
  sse: { start: serveSse, label: 'legacy HTTP+SSE' },
  ws: { start: serveWs, label: 'WebSocket' },
  grpc: { start: serveGrpc, label: 'gRPC' },
  stdio: { start: serveStdio, label: 'stdio' },
} as const satisfies Record<string, { start: (o: ServeOptions) => Promise<ListeningServer>; label: string }>;

function readPort(raw: string | undefined): number {
  if (raw === undefined) return 3000;
  const port = Number(raw);
  if (!/^\d+$/.test(raw) || port > 65_535) {
    throw new UsageError(`--port expects 0…65535 (0 picks a free port), got '${raw}'`, { command: 'serve' });
  }
  return port;
}

/** Checks `serve`'s command line; the returned step runs the server until Ctrl-C (or stdin EOF on stdio). */
export function prepareServe(
  args: ParsedArgs,
): (context: { terminal: Terminal; signal: AbortSignal }) => Promise<ExitCode> {
  if (args.positionals.length > 0) {
    throw new UsageError(`unexpected argument: ${args.positionals.join(' ')}`, { command: 'serve' });
  }
  const name = args.values.get('transport')?.at(-1) ?? 'http';
  if (!Object.hasOwn(TRANSPORTS, name)) {
    throw new UsageError(`unknown --transport ${name}; serve speaks stdio, http, sse, ws or grpc`, {
      command: 'serve',
    });
  }
  const transport = TRANSPORTS[name as keyof typeof TRANSPORTS];
  const port = readPort(args.values.get('port')?.at(-1));
  const host = args.values.get('host')?.at(-1) ?? '127.0.0.1';
  if (name === 'stdio' && (args.values.has('port') || args.values.has('host'))) {
    throw new UsageError('--port and --host apply to http, sse, ws and grpc; stdio has no address', {
      command: 'serve',
    });
  }
  const authSpec = readServeAuth(args, name);
  return async ({ terminal, signal }) => {
    const server = await loadEverythingServer();
    let protection: string | undefined;
    const running = await listening(host, port, () =>
      transport.start({
        server,
        host,
        port,
        onerror: (error) => terminal.err(terminal.errStyle.dim(`server: ${error.message}`)),
        protect:
          authSpec === undefined
            ? undefined
            : async (url) => {
                const { createServeAuth } = await import('./serve-auth.js');
                const auth = await createServeAuth(authSpec, url);
                protection = auth.description;
                return auth;
              },
      }),
    );
    // stdout's first line is the URL, for scripts and tests. On stdio, stdout is the protocol itself and
    // stderr lands in the client's logs, so nothing is announced there.
    if (running.url !== undefined) {
      terminal.out(running.url);
      terminal.err(
        terminal.errStyle.dim(
          `Serving the everything server over ${transport.label} at ${running.url} (Ctrl-C to stop)`,
        ),
      );
      if (protection !== undefined) terminal.err(terminal.errStyle.dim(protection));
      // Off loopback, an unprotected server is everyone's: its tools run for whoever reaches the port.
      if (authSpec === undefined && !isLoopbackHost(host))
        terminal.err(
          `warning: ${host} is reachable from other machines and the server has no authorization; anyone who can connect can use it${name === 'ws' || name === 'grpc' ? ` (${name} takes no --auth-*: bind 127.0.0.1, or serve http with --auth-token or --auth-issuer)` : ' (protect it with --auth-token or --auth-issuer, or bind 127.0.0.1)'}`,
        );
    }
    const stopped = new Promise<void>((resolve) =>
      signal.addEventListener('abort', () => resolve(), { once: true }),
    );
    await Promise.race([stopped, running.done]);
    await running.close();
    await server.close();
    return ExitCode.Ok;
  };
}

/** 127.0.0.0/8, ::1 and localhost: addresses no other machine can connect to. */
function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  return (
    bare === 'localhost' || bare === '::1' || /^127(\.\d{1,3}){3}$/.test(bare) || bare === '::ffff:127.0.0.1'
  );
}

/** Why a listen failed, by system error code, with what to do about it. */
const LISTEN_CODES: Readonly<Record<string, (where: string) => string>> = {
  EADDRINUSE: (where) =>
    `cannot listen on ${where}: the port is in use (EADDRINUSE); pick another with --port, or --port 0 for any free one`,
  EACCES: (where) =>
    `cannot listen on ${where}: permission denied (EACCES); ports below 1024 need privileges, use --port 1024 or above`,
  EADDRNOTAVAIL: (where) =>
    `cannot listen on ${where}: --host is not an address of this machine (EADDRNOTAVAIL)`,
};

/**
 * Starts listening, turning the system errors a user can fix (port in use, privileged port, foreign
 * address) into a `ConnectError` that says what to do: exit 3, like every "nothing could be reached".
 */
async function listening<T>(host: string, port: number, start: () => Promise<T>): Promise<T> {
  try {
    return await start();
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    const explain = typeof code === 'string' ? LISTEN_CODES[code] : undefined;
    if (explain === undefined) throw error;
    throw new ConnectError(explain(host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`), {
      cause: error,
    });
  }
}
