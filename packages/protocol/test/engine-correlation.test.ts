import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ErrorCode, McpError } from '../src/errors.js';
import type { JSONRPCRequest } from '../src/jsonrpc.js';
import { Protocol } from '../src/engine/protocol.js';
import { enginePair, engineWithRawPeer } from './engine-helpers.js';
import { afterMicrotasks } from '@x/test-kit';

const Empty = z.object({});
const Value = z.object({ value: z.number() });

describe('engine: id correlation', () => {
  it('issues monotonically increasing ids per engine and omits absent params', async () => {
    // Without progress asked for (resetTimeoutOnProgress off), a request without params has none.
    const { engine, wire } = await engineWithRawPeer(new Protocol({ resetTimeoutOnProgress: false }));
    void engine.request({ method: 'a' }, Empty).catch(() => {});
    void engine.request({ method: 'b', params: { x: 1 } }, Empty).catch(() => {});
    void engine.request({ method: 'c' }, Empty).catch(() => {});
    await afterMicrotasks(20);
    expect(wire).toEqual([
      { jsonrpc: '2.0', id: 1, method: 'a' },
      { jsonrpc: '2.0', id: 2, method: 'b', params: { x: 1 } },
      { jsonrpc: '2.0', id: 3, method: 'c' },
    ]);
    expect('params' in wire[0]!).toBe(false);
    await engine.close();
  });

  it('routes out-of-order responses to the right callers', async () => {
    const { engine, wire, inject } = await engineWithRawPeer();
    const first = engine.request({ method: 'first' }, Value);
    const second = engine.request({ method: 'second' }, Value);
    await afterMicrotasks(20);
    const [r1, r2] = wire as JSONRPCRequest[];
    await inject({ jsonrpc: '2.0', id: r2!.id, result: { value: 2 } });
    await inject({ jsonrpc: '2.0', id: r1!.id, result: { value: 1 } });
    await expect(first).resolves.toEqual({ value: 1 });
    await expect(second).resolves.toEqual({ value: 2 });
    expect(engine.pendingRequestCount).toBe(0);
  });

  it('reports a response with an unknown id to onerror and keeps working', async () => {
    const { engine, errors, inject, wire } = await engineWithRawPeer();
    await inject({ jsonrpc: '2.0', id: 999, result: {} });
    await inject({ jsonrpc: '2.0', id: 'nope', error: { code: -1, message: 'x' } });
    expect(errors.map((e) => e.message)).toEqual([
      'Received a response for an unknown request id: 999',
      'Received a response for an unknown request id: nope',
    ]);
    const pending = engine.request({ method: 'still-alive' }, Value);
    await afterMicrotasks(20);
    await inject({ jsonrpc: '2.0', id: (wire[0] as JSONRPCRequest).id, result: { value: 7 } });
    await expect(pending).resolves.toEqual({ value: 7 });
  });

  it('reports an error response without id (the peer could not read our message) as an McpError', async () => {
    const { errors, inject } = await engineWithRawPeer();
    await inject({ jsonrpc: '2.0', id: null, error: { code: ErrorCode.ParseError, message: 'Parse error' } });
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(McpError);
    expect((errors[0] as McpError).code).toBe(ErrorCode.ParseError);
  });

  it('ignores a second response for an id that was already settled', async () => {
    const { engine, errors, inject } = await engineWithRawPeer();
    const pending = engine.request({ method: 'x' }, Value);
    await inject({ jsonrpc: '2.0', id: 1, result: { value: 1 } });
    await inject({ jsonrpc: '2.0', id: 1, result: { value: 2 } });
    await expect(pending).resolves.toEqual({ value: 1 });
    expect(errors).toEqual([]);
  });

  it('rejects with McpError.fromError for an error response, keeping code, message and data', async () => {
    const { engine, inject } = await engineWithRawPeer();
    const pending = engine.request({ method: 'x' }, Value);
    await inject({
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32002, message: 'Resource not found', data: { uri: 'a' } },
    });
    const error = await pending.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect(error).toMatchObject({ code: -32002, message: 'Resource not found', data: { uri: 'a' } });
  });

  it('validates the result with the given schema and resolves the parsed output', async () => {
    const { engine, inject } = await engineWithRawPeer();
    const Schema = z.object({ n: z.string().transform(Number) });
    const ok = engine.request({ method: 'x' }, Schema);
    const bad = engine.request({ method: 'y' }, Schema);
    await inject({ jsonrpc: '2.0', id: 1, result: { n: '42', extra: true } });
    await inject({ jsonrpc: '2.0', id: 2, result: { n: 42 } });
    await expect(ok).resolves.toEqual({ n: 42 });
    const error = await bad.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(ErrorCode.InternalError);
    expect((error as McpError).message).toBe(
      'Invalid result for y: n: Invalid input: expected string, received number',
    );
  });

  it('gives each engine its own id sequence in both directions', async () => {
    const { client, server, clientSent, serverSent } = await enginePair();
    client.setRequestHandler('from-server', () => ({}));
    server.setRequestHandler('from-client', () => ({}));
    await client.request({ method: 'from-client' }, Empty);
    await client.request({ method: 'from-client' }, Empty);
    await server.request({ method: 'from-server' }, Empty);
    const ids = (sent: typeof clientSent) =>
      sent
        .map((s) => s.message)
        .filter((m): m is JSONRPCRequest => 'method' in m && 'id' in m)
        .map((m) => m.id);
    expect(ids(clientSent)).toEqual([1, 2]);
    expect(ids(serverSent)).toEqual([1]);
  });
});

describe('onrequestid', () => {
  it('reports the id of the outgoing request synchronously, before the response arrives', async () => {
    const { InMemoryTransport, Protocol, ResultSchema } = await import('@x/protocol');
    const [a, b] = InMemoryTransport.createLinkedPair();
    const server = new Protocol();
    const seen: unknown[] = [];
    server.setRequestHandler('x/echo', (_params, ctx) => {
      seen.push(ctx.requestId);
      return {};
    });
    const client = new Protocol();
    await server.connect(b);
    await client.connect(a);
    const ids: unknown[] = [];
    const first = client.request({ method: 'x/echo' }, ResultSchema, { onrequestid: (id) => ids.push(id) });
    const second = client.request({ method: 'x/echo' }, ResultSchema, { onrequestid: (id) => ids.push(id) });
    expect(ids).toHaveLength(2);
    await Promise.all([first, second]);
    expect(seen).toEqual(ids);
    await client.close();
  });
});
