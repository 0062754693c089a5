import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { StdioClientTransport } from '@x/transport-stdio';
import { afterEach, beforeAll, describe } from 'vitest';
import { clientBatchCases, type RawPeer, serverBatchCases, TextQueue } from './fixtures/batch-helpers.js';
import { Resources } from './fixtures/e2e-helpers.js';

// JSON-RPC batches over stdio (2025-03-26 transports: "Messages may be JSON-RPC requests, notifications,
// responses—or a JSON-RPC batch containing one or more requests and/or notifications"), with real child
// processes on the built packages. The cases and the spec sentences they check are in batch-helpers.ts.

const built = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const MCP_SERVER = built('./fixtures/e2e-stdio-server.mjs');
const SCRIPTED_SERVER = built('./fixtures/batch-stdio-peer.mjs');

const resources = new Resources();
afterEach(() => resources.closeAll());

beforeAll(() => {
  const missing = ['server', 'transport-stdio', 'protocol']
    .map((name) => built(`../../../packages/${name}/dist/index.js`))
    .filter((path) => !existsSync(path));
  if (missing.length > 0)
    throw new Error(`Build first (pnpm turbo run build); missing ${missing.join(', ')}`);
});

/** Our McpServer in a child process, driven line by line through its raw stdin/stdout. */
async function rawStdio(): Promise<RawPeer> {
  const child = spawn(process.execPath, [MCP_SERVER], { stdio: ['pipe', 'pipe', 'ignore'] });
  resources.track({
    close: () => {
      child.stdin.end();
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
  });
  const lines = new TextQueue();
  createInterface({ input: child.stdout }).on('line', (line) => lines.push(line));
  return {
    send: (text) =>
      new Promise<void>((resolve, reject) =>
        child.stdin.write(`${text}\n`, (error) => (error ? reject(error) : resolve())),
      ),
    next: () => lines.next(),
  };
}

describe('stdio server: JSON-RPC batches', () => {
  serverBatchCases(rawStdio);
});

describe('stdio client: JSON-RPC batches from the server', () => {
  clientBatchCases(resources, async (client) => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [SCRIPTED_SERVER],
      stderr: 'pipe',
    });
    const received: string[] = [];
    createInterface({ input: transport.stderr! }).on('line', (line) => {
      if (line.startsWith('RECEIVED ')) received.push(line.slice('RECEIVED '.length));
    });
    resources.track(transport);
    await client.connect(transport);
    return { transport, received: () => received };
  });
});
