import { Client } from '@x/client';
import { ErrorCode, type Implementation, McpError, type Transport } from '@x/protocol/core';

export interface UpstreamConnectOptions {
  readonly open: () => Transport | Promise<Transport>;
  readonly name: string;
  readonly timeoutMs: number;
  readonly clientInfo: Implementation;
  /** An upstream that reconnects by itself (see `BridgeOptions.onupstreamreconnect`) is back. */
  readonly onreconnect?: (() => void) | undefined;
}

/**
 * A connected upstream `Client` (handshake or discovery done), or a typed -32000 naming the upstream and
 * `upstreamConnectTimeoutMs` when it took too long. A transport opened and then given up on is closed
 * (a spawned process is stopped), so a failed connect leaves nothing behind.
 */
export async function connectUpstream(options: UpstreamConnectOptions): Promise<Client> {
  const { name, timeoutMs } = options;
  // Every input kind is declared upstream: the bridge asks its downstream client for each, and the
  // downstream's own answer (or refusal) is what the upstream gets.
  const client = new Client(options.clientInfo, {
    capabilities: { sampling: {}, roots: { listChanged: true }, elicitation: { form: {}, url: {} } },
    // A 2026-07-28 upstream logs only when asked per request: ask for everything, and let the
    // downstream `Server` pass on what its own client asked for (`ctx.log` filters by its level).
    logLevel: 'debug',
  });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new McpError(
            ErrorCode.ConnectionClosed,
            `Bridge: the upstream "${name}" did not connect within ${timeoutMs} ms (upstreamConnectTimeoutMs)`,
            { bridge: true, side: 'upstream', name, option: 'upstreamConnectTimeoutMs', limit: timeoutMs },
          ),
        ),
      timeoutMs,
    );
  });
  let gaveUp = false;
  let transport: Transport | undefined;
  const opening = Promise.resolve()
    .then(options.open)
    .then((opened) => {
      transport = opened;
      // Opened after the timeout: nobody will use it.
      if (gaveUp) void opened.close().catch(() => undefined);
      return opened;
    });
  try {
    await Promise.race([opening.then((opened) => client.connect(opened)), timedOut]);
    if (transport !== undefined) reportReconnects(transport, options.onreconnect);
    return client;
  } catch (error) {
    gaveUp = true;
    await Promise.allSettled([client.close(), transport?.close()]);
    if (error instanceof McpError) throw error;
    throw new McpError(
      ErrorCode.ConnectionClosed,
      `Bridge: the upstream "${name}" could not be reached: ${error instanceof Error ? error.message : String(error)}`,
      { bridge: true, side: 'upstream', name },
      { cause: error },
    );
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Wraps the `onreconnect` the `Client` installed (re-initialize, then re-subscribe) so the bridge hears
 * once the upstream's session is back: after the new handshake succeeded.
 */
function reportReconnects(transport: Transport, onreconnect: (() => void) | undefined): void {
  const resync = transport.onreconnect;
  if (resync === undefined || onreconnect === undefined) return;
  transport.onreconnect = (() => {
    const handshake: unknown = resync();
    // A failed handshake is the Client's to report (its `onerror`); only a success is news here.
    void Promise.resolve(handshake).then(onreconnect, () => undefined);
    return handshake;
  }) as () => void;
}
