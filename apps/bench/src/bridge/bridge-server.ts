/**
 * Bridge process entry: `node dist/bridge/bridge-server.js <raw|translate> <upstream command JSON>`.
 * `@x/bridge` in front of the stdio upstream, served over Streamable HTTP on 127.0.0.1 (one upstream
 * process per downstream session, the bridge's default); prints `{"port":N}` once listening and exits
 * when its stdin closes (the bench went away).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createBridge } from '@x/bridge';
import { StdioClientTransport } from '@x/transport-stdio';
import { createStreamableHttpHandler } from '@x/transport-streamable-http';
import { toNodeHandler } from '@x/transport-streamable-http/node';

/** Longer than any pause in a run, so the client's keep-alive connection is never dropped under it. */
const KEEP_ALIVE_TIMEOUT_MS = 65_000;

const mode = process.argv[2];
if (mode !== 'raw' && mode !== 'translate') throw new Error(`bridge-server: unknown mode ${mode}`);
const upstream = JSON.parse(process.argv[3] ?? '{}') as { command: string; args: string[] };

const bridge = createBridge({
  mode,
  upstream: () =>
    new StdioClientTransport({ command: upstream.command, args: upstream.args, stderr: 'inherit' }),
  upstreamName: 'bench stdio server',
  onerror: (error) => console.error('[bridge-server]', error.message),
});
const handler = createStreamableHttpHandler({
  onsession: (transport) => bridge.connect(transport).catch(() => undefined),
});
const http = createServer({ keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS }, toNodeHandler(handler)).listen(
  0,
  '127.0.0.1',
  () => process.stdout.write(`${JSON.stringify({ port: (http.address() as AddressInfo).port })}\n`),
);

process.stdin.resume();
process.stdin.once('end', () => {
  http.closeAllConnections();
  http.close();
  void bridge.close().then(() => process.exit(0));
});
