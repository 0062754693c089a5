import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { readFuzzConfig } from '../src/fuzz-config.js';
import { createFuzzServer } from '../src/fuzz-server.js';
import { type FuzzSession, type FuzzTarget, fuzzTransport, legacyHandshake } from '../src/fuzz-run.js';
import { createIdSource } from '../src/hostile-input.js';
import { type Host, hostWebSocket } from '../src/hosts.js';
import { StreamSession } from '../src/stream-session.js';
import { watchUnhandled } from './watch-unhandled.js';

// Issue #24, "Prove it stays fixed": hostile text frames at the WebSocket server transport on 127.0.0.1
// (one JSON-RPC message per text frame, subprotocol `mcp`), an McpServer behind it, in this process (so
// its heap is this heap).

const config = readFuzzConfig();
const unhandled = watchUnhandled();
let host: Host;
let sessions = 0;

beforeAll(async () => {
  host = await hostWebSocket(createFuzzServer());
});
afterAll(async () => {
  await host.close();
  unhandled.stop();
});

async function openWs(): Promise<FuzzSession> {
  const socket = new WebSocket(host.url, 'mcp');
  const ids = createIdSource(`ws${sessions++}`);
  let open = true;
  const session: StreamSession = new StreamSession({
    ids,
    write: (text) => {
      if (open) socket.send(text);
    },
    close: async () => {
      if (!open) return;
      const closed = new Promise((resolve) => socket.once('close', resolve));
      socket.close();
      await closed;
    },
  });
  socket.on('message', (data, isBinary) => {
    if (isBinary) return session.fail('server sent a binary frame');
    try {
      session.receive(JSON.parse(String(data)));
    } catch {
      session.fail(`server sent a frame that is not JSON: ${String(data).slice(0, 200)}`);
    }
  });
  socket.on('close', (code, reason) => {
    open = false;
    session.fail(`server closed the socket (${code} ${String(reason)})`);
  });
  socket.on('error', (error) => session.fail(`socket error: ${error.message}`));
  await new Promise<void>((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  await legacyHandshake(session, '2025-11-25');
  return session;
}

const target: FuzzTarget = { transport: 'WebSocket server', open: openWs };

describe('fuzz: WebSocket server transport', () => {
  it('answers every hostile frame exactly once or refuses it, and stays up', {
    timeout: config.long ? 3_600_000 : 120_000,
  }, async () => {
    const summary = await fuzzTransport(target, config);
    expect(summary.failures).toEqual([]);
    expect(unhandled.errors).toEqual([]);
  });
});
