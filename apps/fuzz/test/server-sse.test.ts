import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFuzzConfig } from '../src/fuzz-config.js';
import { createFuzzServer } from '../src/fuzz-server.js';
import { type FuzzSession, type FuzzTarget, fuzzTransport, legacyHandshake } from '../src/fuzz-run.js';
import { createIdSource } from '../src/hostile-input.js';
import { type Host, hostSse } from '../src/hosts.js';
import { post } from '../src/http-post.js';
import { StreamSession } from '../src/stream-session.js';
import { watchUnhandled } from './watch-unhandled.js';

// Issue #24, "Prove it stays fixed": hostile POST bodies at the legacy HTTP+SSE server (2024-11-05) on
// 127.0.0.1. Accepted messages get 202 and their answers come on the GET stream exactly once; refused
// bodies get a 4xx with a JSON-RPC error (id null, -32700/-32600); nothing gets a 5xx.

const config = readFuzzConfig();
const unhandled = watchUnhandled();
let host: Host;
let sessions = 0;

beforeAll(async () => {
  host = await hostSse(createFuzzServer());
});
afterAll(async () => {
  await host.close();
  unhandled.stop();
});

async function openSse(): Promise<FuzzSession> {
  const ids = createIdSource(`sse${sessions++}`);
  const abort = new AbortController();
  const response = await fetch(host.url, { headers: { accept: 'text/event-stream' }, signal: abort.signal });
  if (response.status !== 200 || response.body === null) throw new Error(`GET: HTTP ${response.status}`);
  let endpoint: URL | undefined;
  let gotEndpoint: (() => void) | undefined;
  const endpointReady = new Promise<void>((resolve) => {
    gotEndpoint = resolve;
  });
  const session: StreamSession = new StreamSession({
    ids,
    write: async (text) => {
      if (endpoint === undefined) return [];
      const result = await post(endpoint, {}, text);
      if (result.status >= 500) session.fail(`POST answered HTTP ${result.status}`);
      if (result.status >= 400 && result.values.length === 0)
        session.fail(`POST answered HTTP ${result.status} without a JSON-RPC body`);
      return result.values;
    },
    close: async () => {
      abort.abort();
    },
  });
  void (async () => {
    const decoder = new TextDecoder();
    let buffered = '';
    try {
      for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
        buffered += decoder.decode(chunk, { stream: true }).replace(/\r\n?/g, '\n');
        let end = buffered.indexOf('\n\n');
        while (end !== -1) {
          const block = buffered.slice(0, end);
          buffered = buffered.slice(end + 2);
          end = buffered.indexOf('\n\n');
          if (!/^data:/m.test(block)) continue; // a comment (keep-alive)
          const event = /^event: ?(.*)$/m.exec(block)?.[1] ?? 'message';
          const data = block
            .split('\n')
            .filter((line) => line.startsWith('data:'))
            .map((line) => line.slice(line.startsWith('data: ') ? 6 : 5))
            .join('\n');
          if (event === 'endpoint') {
            endpoint = new URL(data, host.url);
            gotEndpoint?.();
          } else if (event === 'message') {
            try {
              session.receive(JSON.parse(data));
            } catch {
              session.fail(`an event that is not JSON: ${data.slice(0, 200)}`);
            }
          }
        }
      }
      if (!abort.signal.aborted) session.fail('the server ended the event stream');
    } catch (error) {
      if (!abort.signal.aborted) session.fail(`event stream failed: ${String(error)}`);
    }
  })();
  await endpointReady;
  await legacyHandshake(session, '2024-11-05');
  return session;
}

const target: FuzzTarget = { transport: 'legacy HTTP+SSE', open: openSse };

describe('fuzz: legacy HTTP+SSE server transport', () => {
  it('answers every hostile POST once on the stream or refuses it with a 4xx, never a 5xx', {
    timeout: config.long ? 3_600_000 : 120_000,
  }, async () => {
    const summary = await fuzzTransport(target, config);
    expect(summary.failures).toEqual([]);
    expect(unhandled.errors).toEqual([]);
  });
});
