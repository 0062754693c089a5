import type { RequestId } from '@x/protocol';
import { encodeHeaderValue } from '@x/transport-streamable-http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFuzzConfig } from '../src/fuzz-config.js';
import { createFuzzServer } from '../src/fuzz-server.js';
import { type FuzzSession, type FuzzTarget, fuzzTransport } from '../src/fuzz-run.js';
import { createIdSource, type IdSource, type Probe } from '../src/hostile-input.js';
import { type Host, hostStreamableHttp } from '../src/hosts.js';
import { post, type PostResult } from '../src/http-post.js';
import { watchUnhandled } from './watch-unhandled.js';

// Issue #24, "Prove it stays fixed": hostile POST bodies at the Streamable HTTP handler on 127.0.0.1, in
// both eras: a legacy session (2025-11-25, Mcp-Session-Id) and modern stateless requests (2026-07-28,
// Mcp-Method/Mcp-Name headers and the version in _meta). Each POST carrying a request gets exactly one
// response for its id (in a JSON or SSE body, or a 4xx JSON-RPC error body with that id); a refused body
// gets a 4xx with a JSON-RPC error (id null, -32700/-32600); nothing gets a 5xx.

const config = readFuzzConfig();
const unhandled = watchUnhandled();
let host: Host;
let sessions = 0;

beforeAll(async () => {
  host = await hostStreamableHttp(createFuzzServer());
});
afterAll(async () => {
  await host.close();
  unhandled.stop();
});

const MODERN = '2026-07-28';
const LEGACY = '2025-11-25';
const META = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'fuzz', version: '1' },
};

/** A modern request carries its version in `_meta` and its method and name in headers. */
function modernize(text: string): { body: string; headers: Record<string, string> } {
  const headers: Record<string, string> = { 'mcp-protocol-version': MODERN };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { body: text, headers };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value) || !('method' in value))
    return { body: text, headers };
  const message = value as { method: unknown; params?: unknown };
  if (typeof message.method === 'string') headers['mcp-method'] = encodeHeaderValue(message.method);
  const params = message.params;
  if (params === undefined || (typeof params === 'object' && params !== null && !Array.isArray(params))) {
    const record = (params ?? {}) as Record<string, unknown>;
    message.params = { ...record, _meta: { ...(record['_meta'] as object | undefined), ...META } };
    const name = message.method === 'resources/read' ? record['uri'] : record['name'];
    if (typeof name === 'string') headers['mcp-name'] = encodeHeaderValue(name);
  }
  return { body: JSON.stringify(message), headers };
}

function judge(probe: Probe, results: PostResult[]): string[] {
  const problems: string[] = [];
  const paid = new Map<RequestId, number>();
  for (const result of results) {
    if (result.status >= 500) problems.push(`HTTP ${result.status}`);
    if (result.unreadable !== undefined)
      problems.push(`HTTP ${result.status} with an unreadable body: ${result.unreadable}`);
    if (result.status >= 400 && result.values.length === 0)
      problems.push(`HTTP ${result.status} without a JSON-RPC error body`);
    for (const value of result.values) {
      if (typeof value !== 'object' || value === null || 'method' in value) continue;
      const response = value as { id?: RequestId | null; error?: { code: number } };
      if (response.id === null || response.id === undefined) {
        if (probe.answers.length > 0)
          problems.push(
            `a request got an id-null answer (HTTP ${result.status}): ${JSON.stringify(value).slice(0, 200)}`,
          );
        else if (probe.refused && response.error?.code !== -32700 && response.error?.code !== -32600) {
          problems.push(`refused with code ${response.error?.code}`);
        }
        continue;
      }
      if (probe.succeeds === true && (response.error !== undefined || result.status !== 200)) {
        problems.push(`valid call failed (HTTP ${result.status}): ${JSON.stringify(value).slice(0, 200)}`);
      }
      paid.set(response.id, (paid.get(response.id) ?? 0) + 1);
    }
  }
  const owed = new Map<RequestId, number>();
  for (const id of probe.answers) owed.set(id, (owed.get(id) ?? 0) + 1);
  for (const [id, count] of owed) {
    const got = paid.get(id) ?? 0;
    if (got !== count) problems.push(`id ${JSON.stringify(id)} answered ${got} times, asked ${count}`);
  }
  for (const id of paid.keys())
    if (!owed.has(id)) problems.push(`response to an id never asked: ${JSON.stringify(id)}`);
  if (probe.refused && !results.some((result) => result.status >= 400 && result.status < 500)) {
    problems.push(`refused text answered with HTTP ${results.map((result) => result.status).join(', ')}`);
  }
  return problems;
}

type Framing = (text: string) => { body: string; headers: Record<string, string> };

class HttpSession implements FuzzSession {
  readonly ids: IdSource;
  readonly #headers: Framing;
  readonly #close: () => Promise<void>;

  constructor(ids: IdSource, headers: Framing, close: () => Promise<void>) {
    this.ids = ids;
    this.#headers = headers;
    this.#close = close;
  }

  async run(probes: readonly Probe[]): Promise<string[]> {
    const problems: string[] = [];
    for (const probe of probes) {
      // A probe's texts go out together (a duplicate id must arrive while the original is in flight).
      let results: PostResult[];
      try {
        results = await Promise.all(
          probe.texts.map((text) => {
            const { body, headers } = this.#headers(text);
            return post(host.url, headers, body);
          }),
        );
      } catch (error) {
        const cause = error instanceof Error && error.cause !== undefined ? ` (${String(error.cause)})` : '';
        problems.push(`${probe.generator}: the POST failed: ${String(error)}${cause}`);
        continue;
      }
      for (const problem of judge(probe, results)) problems.push(`${probe.generator}: ${problem}`);
    }
    return problems;
  }

  close(): Promise<void> {
    return this.#close();
  }
}

async function openLegacy(): Promise<FuzzSession> {
  const ids = createIdSource(`legacy${sessions++}`);
  const init = await post(
    host.url,
    {},
    JSON.stringify({
      jsonrpc: '2.0',
      id: ids.fresh(),
      method: 'initialize',
      params: { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: 'fuzz', version: '1' } },
    }),
  );
  if (init.status !== 200) throw new Error(`initialize: HTTP ${init.status}`);
  const sessionId = init.sessionId;
  if (sessionId === null) throw new Error('initialize returned no Mcp-Session-Id');
  const headers = { 'mcp-session-id': sessionId, 'mcp-protocol-version': LEGACY };
  await post(host.url, headers, '{"jsonrpc":"2.0","method":"notifications/initialized"}');
  return new HttpSession(
    ids,
    (text) => ({ body: text, headers }),
    async () => {
      await fetch(host.url, { method: 'DELETE', headers });
    },
  );
}

async function openModern(): Promise<FuzzSession> {
  return new HttpSession(createIdSource(`modern${sessions++}`), modernize, async () => undefined);
}

const legacy: FuzzTarget = { transport: 'Streamable HTTP legacy', open: openLegacy };
const modern: FuzzTarget = { transport: 'Streamable HTTP 2026-07-28', open: openModern };

describe('fuzz: Streamable HTTP server (both eras)', () => {
  for (const target of [legacy, modern]) {
    it(`${target.transport}: every POST answered once or refused with a 4xx, never a 5xx`, {
      timeout: config.long ? 3_600_000 : 120_000,
    }, async () => {
      const summary = await fuzzTransport(target, config);
      expect(summary.failures).toEqual([]);
      expect(unhandled.errors).toEqual([]);
    });
  }
});
