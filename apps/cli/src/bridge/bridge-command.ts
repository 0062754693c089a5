import type { Transport } from '@x/protocol/core';
import type { ParsedArgs } from '../args/parsed-args.js';
import { UsageError } from '../args/usage-error.js';
import { ExitCode } from '../exit-codes.js';
import type { Terminal } from '../output/terminal.js';
import type { ListeningServer } from '../serve/listening-server.js';
import { readFrontAuth } from '../serve/serve-auth.js';
import { type ServeOptions, serveHttp, serveSse, serveStdio } from '../serve/serve-transports.js';
import { readClientCredentials, type UnresolvedCredentials } from './client-credentials.js';
import { serveGrpc } from './grpc-front.js';
import { serveWsFront } from './ws-front.js';

const FRONTS = {
  http: { start: serveHttp, label: 'Streamable HTTP' },
  sse: { start: serveSse, label: 'legacy HTTP+SSE' },
  ws: { start: serveWsFront, label: 'WebSocket' },
  grpc: { start: serveGrpc, label: 'gRPC' },
  stdio: { start: serveStdio, label: 'stdio' },
} as const satisfies Record<string, { start: (o: ServeOptions) => Promise<ListeningServer>; label: string }>;

/** The fronts that check a bearer token (`--auth-*`): every network one. */
const PROTECTABLE_FRONTS = ['http', 'sse', 'ws', 'grpc'] as const;

/** The server being bridged: a command spawned per downstream session, or a URL connected per session. */
type Upstream =
  | { readonly kind: 'stdio'; readonly command: string; readonly args: readonly string[] }
  | { readonly kind: 'http' | 'ws'; readonly url: URL };

function readUpstream(serverCommand: readonly string[] | undefined): Upstream {
  const [first, ...rest] = serverCommand ?? [];
  if (first === undefined || first === '') {
    throw new UsageError(
      'give the upstream after --: a command (-- node server.js) or a URL (-- https://host/mcp)',
      {
        command: 'bridge',
      },
    );
  }
  const scheme = /^([a-z][a-z0-9+.-]*:)\/\//i.exec(first)?.[1]?.toLowerCase();
  if (rest.length === 0 && scheme !== undefined) {
    const kind =
      scheme === 'http:' || scheme === 'https:'
        ? 'http'
        : scheme === 'ws:' || scheme === 'wss:'
          ? 'ws'
          : undefined;
    if (kind === undefined)
      throw new UsageError(`unsupported upstream URL scheme ${scheme}`, { command: 'bridge' });
    return { kind, url: new URL(first) };
  }
  return { kind: 'stdio', command: first, args: rest };
}

function readPort(raw: string | undefined): number {
  if (raw === undefined) return 3000;
  const port = Number(raw);
  if (!/^\d+$/.test(raw) || port > 65_535) {
    throw new UsageError(`--port expects 0…65535 (0 picks a free port), got '${raw}'`, { command: 'bridge' });
  }
  return port;
}

/** OAuth of an http(s) upstream: `--no-browser`, and `--client-id` with its secret (read at run time). */
interface UpstreamAuth {
  readonly noBrowser: boolean;
  readonly credentials: UnresolvedCredentials | undefined;
}

/**
 * A fresh upstream transport per call: one upstream connection (or process) per downstream session.
 * `close` releases what the factory holds for every session (the OAuth loopback listener).
 */
async function upstreamFactory(
  upstream: Upstream,
  auth: UpstreamAuth,
  terminal: Terminal,
): Promise<{ open: () => Transport | Promise<Transport>; close: () => Promise<void> }> {
  const none = (): Promise<void> => Promise.resolve();
  if (upstream.kind === 'stdio') {
    const { StdioClientTransport } = await import('@x/transport-stdio');
    // A crashed upstream is restarted (STDIO_RESTART_DEFAULTS: 5 a minute, with backoff), its session
    // re-initialized and re-subscribed by the bridge's upstream client; past the budget the session ends.
    const open = (): Transport =>
      new StdioClientTransport({
        command: upstream.command,
        args: [...upstream.args],
        stderr: 'inherit',
        restart: true,
      });
    return { open, close: none };
  }
  if (upstream.kind === 'ws') {
    const { WebSocketClientTransport } = await import('@x/transport-ws');
    return { open: () => new WebSocketClientTransport(upstream.url), close: none };
  }
  const { remoteUpstream } = await import('./remote-upstream.js');
  return remoteUpstream({
    url: upstream.url,
    terminal,
    noBrowser: auth.noBrowser,
    clientCredentials: auth.credentials?.resolve(terminal.io.env),
  });
}

/**
 * `x-mcp bridge --serve <http|sse|ws|grpc|stdio> [--shared] [--port N] [--host A] [--auth-…] -- <command …|url>`: checks the
 * command line; the returned step serves the bridge until Ctrl-C (or stdin EOF with `--serve stdio`).
 */
export function prepareBridge(
  args: ParsedArgs,
): (context: { terminal: Terminal; signal: AbortSignal }) => Promise<ExitCode> {
  if (args.positionals.length > 0) {
    throw new UsageError(`unexpected argument: ${args.positionals.join(' ')} (the upstream goes after --)`, {
      command: 'bridge',
    });
  }
  const name = args.values.get('serve')?.at(-1) ?? 'http';
  if (!Object.hasOwn(FRONTS, name)) {
    throw new UsageError(`unknown --serve ${name}; bridge serves http, sse, ws, grpc or stdio`, {
      command: 'bridge',
    });
  }
  const front = FRONTS[name as keyof typeof FRONTS];
  if (name === 'stdio' && (args.values.has('port') || args.values.has('host'))) {
    throw new UsageError('--port and --host apply to http, sse, ws and grpc; stdio has no address', {
      command: 'bridge',
    });
  }
  const shared = args.flags.has('shared');
  if (shared && (name === 'sse' || name === 'stdio')) {
    const clients = name === 'sse' ? 'only 2024-11-05 clients' : 'one client';
    throw new UsageError(
      `--shared serves only 2026-07-28 (stateless) clients, and --serve ${name} has ${clients}: drop --shared`,
      { command: 'bridge' },
    );
  }
  const port = readPort(args.values.get('port')?.at(-1));
  const host = args.values.get('host')?.at(-1) ?? '127.0.0.1';
  // The front's own protection, independent of the upstream's (which OAuth or the process handles).
  const frontAuth = readFrontAuth(args, {
    command: 'bridge',
    option: '--serve',
    front: name,
    protectable: PROTECTABLE_FRONTS,
    why: 'stdio has no front to protect: its one client is the host that starts the bridge',
  });
  const upstream = readUpstream(args.serverCommand);
  const auth: UpstreamAuth = {
    noBrowser: args.flags.has('no-browser'),
    credentials: readClientCredentials(args),
  };
  if (upstream.kind !== 'http' && (auth.credentials !== undefined || auth.noBrowser)) {
    throw new UsageError(
      '--client-id and --no-browser apply to an http(s) upstream (OAuth protects HTTP servers)',
      {
        command: 'bridge',
      },
    );
  }
  const upstreamName =
    upstream.kind === 'stdio' ? [upstream.command, ...upstream.args].join(' ') : upstream.url.href;
  return async ({ terminal, signal }) => {
    const { createBridge, DEFAULT_UPSTREAM_CONNECT_TIMEOUT_MS } = await import('@x/bridge');
    const report = (error: Error): void => terminal.err(terminal.errStyle.dim(`bridge: ${error.message}`));
    const factory = await upstreamFactory(upstream, auth, terminal);
    const bridge = createBridge({
      upstream: factory.open,
      upstreamName,
      // A remote upstream may first need a person at the consent page (the loopback listener waits
      // DEFAULT_LOOPBACK_REDIRECT_TIMEOUT_MS for them); connecting starts after that.
      upstreamConnectTimeoutMs:
        upstream.kind === 'http'
          ? DEFAULT_UPSTREAM_CONNECT_TIMEOUT_MS +
            (await import('@x/auth/node')).DEFAULT_LOOPBACK_REDIRECT_TIMEOUT_MS
          : DEFAULT_UPSTREAM_CONNECT_TIMEOUT_MS,
      shared,
      onerror: report,
      onupstreamreconnect: () =>
        terminal.err(
          terminal.errStyle.dim(`bridge: ${upstreamName} is back (restarted, re-initialized, re-subscribed)`),
        ),
    });
    let protection: string | undefined;
    const running = await front
      .start({
        // A session whose upstream cannot be reached is answered with -32000 and closed by the bridge.
        server: { connect: (transport) => bridge.connect(transport).catch(() => undefined) },
        host,
        port,
        onerror: report,
        protect:
          frontAuth === undefined
            ? undefined
            : async (url) => {
                const { createServeAuth } = await import('../serve/serve-auth.js');
                const auth = await createServeAuth(frontAuth, url, 'x-mcp bridge');
                protection = auth.description;
                return auth;
              },
      })
      .catch(async (error: unknown) => {
        // E.g. --auth-issuer without a key set to find: nothing may be left running.
        await bridge.close();
        await factory.close();
        throw error;
      });
    if (running.url !== undefined) {
      terminal.out(running.url);
      terminal.err(
        terminal.errStyle.dim(
          `Bridging ${upstreamName} to ${front.label} at ${running.url} (Ctrl-C to stop)`,
        ),
      );
      if (protection !== undefined) terminal.err(terminal.errStyle.dim(protection));
    }
    const stopped = new Promise<void>((resolve) =>
      signal.addEventListener('abort', () => resolve(), { once: true }),
    );
    await Promise.race([stopped, running.done]);
    await running.close();
    await bridge.close();
    await factory.close();
    return ExitCode.Ok;
  };
}
