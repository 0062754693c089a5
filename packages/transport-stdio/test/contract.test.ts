import { once } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { type TransportPair, transportContractScenarios } from '@x/protocol/testing';
import { afterEach, describe, it } from 'vitest';
import { StdioServerTransport } from '../src/index.js';
import { cleanup, nodeFixture, track } from './helpers.js';

afterEach(cleanup);

/** Two stream ends wired back to back in memory: the framing and close semantics without a process. */
async function streamPair(): Promise<TransportPair> {
  const clientToServer = new PassThrough();
  const serverToClient = new PassThrough();
  return {
    client: new StdioServerTransport({ stdin: serverToClient, stdout: clientToServer }),
    server: new StdioServerTransport({ stdin: clientToServer, stdout: serverToClient }),
    dispose: async () => {
      clientToServer.destroy();
      serverToClient.destroy();
    },
  };
}

let socketCount = 0;
const socketDir = mkdtempSync(join(tmpdir(), 'x-mcp-stdio-contract-'));

/**
 * A StdioClientTransport spawning a real child (a relay) whose stdio is joined to a socket, and a
 * StdioServerTransport in this process on that socket: every byte crosses a real process boundary.
 */
async function childProcessPair(): Promise<TransportPair> {
  const path =
    process.platform === 'win32'
      ? `\\\\.\\pipe\\x-mcp-stdio-${process.pid}-${socketCount++}`
      : join(socketDir, `${socketCount++}.sock`);
  const listener = createServer();
  listener.listen(path);
  await once(listener, 'listening');
  const client = nodeFixture('relay.mjs', [path]);
  const connected = once(listener, 'connection') as Promise<[Socket]>;
  await client.start();
  const [socket] = await connected;
  const server = track(new StdioServerTransport({ stdin: socket, stdout: socket }));
  await server.start();
  return {
    client,
    server,
    started: true,
    dispose: async () => {
      socket.destroy();
      listener.close();
    },
  };
}

describe('transport contract over in-memory streams (StdioServerTransport on both ends)', () => {
  for (const scenario of transportContractScenarios) {
    it(scenario.name, () => scenario.run(streamPair));
  }
});

describe('transport contract over a real child process (StdioClientTransport ↔ StdioServerTransport)', () => {
  for (const scenario of transportContractScenarios) {
    it(scenario.name, () => scenario.run(childProcessPair, { settleMs: 100 }));
  }
});
