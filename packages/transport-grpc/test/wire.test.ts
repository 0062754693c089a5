import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { credentials, loadPackageDefinition } from '@grpc/grpc-js';
import { loadSync } from '@grpc/proto-loader';
import { describe, expect, it } from 'vitest';
import { PROTO_DIR } from '../src/index.js';
import { startMcp } from './helpers.js';
import { nextFrames, rawSession, rawTunnelClient, TUNNEL_PROTO } from './raw-peer.js';

// sha256 of the published tunnel-mcp.transport.v1.proto (shared/spec/grpc): shipped unchanged.
const PUBLISHED_SHA256 = '85b4021d764a1e511511bbfc804e80d191fef07420c6d977992a4c89e10b3dd8';

describe('wire compatibility with the published tunnel', () => {
  it('ships the published proto byte for byte', () => {
    const bytes = readFileSync(TUNNEL_PROTO);
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(PUBLISHED_SHA256);
    expect(bytes.toString('utf8')).toContain('rpc Session(stream JsonRpcLine) returns (stream JsonRpcLine);');
  });

  it('ships the published native binding protos byte for byte (google-mcp.proto, google-mcp_messages.proto)', () => {
    const hash = (file: string) =>
      createHash('sha256')
        .update(readFileSync(new URL(`../proto/google-mcp/${file}`, import.meta.url)))
        .digest('hex');
    expect(hash('mcp.proto')).toBe('8585db2588184accdeac5b3a291cdab4c9983e73f1af9f4514e15a404cfac813');
    expect(hash('mcp_messages.proto')).toBe(
      'bcbb00e461b99f81822d5410606e017c9ffd9e7fadc7d9bc190fe773a97cbed9',
    );
  });

  it('a bare grpc-js client built from the published proto initializes, lists and calls tools', async () => {
    await using listener = await startMcp();
    const client = rawTunnelClient(listener.target);
    try {
      const { call, initial } = await rawSession(client, { 'mcp-protocol-version': '2025-11-25' });
      expect(initial.get('mcp-session-id')[0]).toMatch(/^[0-9a-f-]{36}$/);
      call.pause();
      call.write({
        line: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: {
            protocolVersion: '2025-11-25',
            capabilities: {},
            clientInfo: { name: 'raw', version: '0' },
          },
        }),
      });
      const [init] = await nextFrames(call, 1);
      expect(JSON.parse(init!.line)).toMatchObject({ id: 1, result: { protocolVersion: '2025-11-25' } });
      // The server ties its answer to the request it answers (the frame's related_request_id, field 2).
      expect(init!.related_request_id).toBe('1');
      call.write({ line: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) });
      call.write({
        line: JSON.stringify({
          jsonrpc: '2.0',
          id: 2,
          method: 'tools/call',
          params: { name: 'add', arguments: { a: 1, b: 2 } },
        }),
      });
      const [called] = await nextFrames(call, 1);
      expect(JSON.parse(called!.line)).toEqual({
        jsonrpc: '2.0',
        id: 2,
        result: { content: [{ type: 'text', text: '3' }] },
      });
      // Malformed JSON in a frame is answered with -32700 (id null); the session goes on.
      call.write({ line: '{"jsonrpc":"2.0","id":3,"method":' });
      const [parseError] = await nextFrames(call, 1);
      expect(JSON.parse(parseError!.line)).toMatchObject({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32700 },
      });
      call.write({ line: JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'ping' }) });
      const [pong] = await nextFrames(call, 1);
      expect(JSON.parse(pong!.line)).toEqual({ jsonrpc: '2.0', id: 4, result: {} });
      const ended = new Promise<{ code: number }>((resolve) => call.once('status', resolve));
      call.resume();
      call.end();
      expect((await ended).code).toBe(0);
    } finally {
      client.close();
    }
  }, 30_000);

  it('serves grpc.health.v1.Health Check and Watch, NOT_SERVING from the start of a drain', async () => {
    const listener = await startMcp();
    const definition = loadSync('grpc/health/v1/health.proto', {
      includeDirs: [PROTO_DIR],
      keepCase: true,
      defaults: true,
      enums: String,
    });
    const Health = (
      loadPackageDefinition(definition) as unknown as {
        grpc: { health: { v1: { Health: new (target: string, creds: unknown) => HealthClient } } };
      }
    ).grpc.health.v1.Health;
    const health = new Health(listener.target, credentials.createInsecure());
    try {
      const check = (service: string) =>
        new Promise<{ status: string }>((resolve, reject) =>
          health.Check({ service }, (error, response) => (error ? reject(error) : resolve(response!))),
        );
      expect(await check('')).toEqual({ status: 'SERVING' });
      expect(await check('mcp.transport.v1.Mcp')).toEqual({ status: 'SERVING' });
      await expect(check('nope')).rejects.toThrow(/NOT_FOUND/);
      const watch = health.Watch({ service: 'mcp.transport.v1.Mcp' });
      const seen: string[] = [];
      const notServing = new Promise<void>((resolve) => {
        watch.on('data', (response: { status: string }) => {
          seen.push(response.status);
          if (response.status === 'NOT_SERVING') resolve();
        });
      });
      watch.on('error', () => {});
      await new Promise<void>((resolve) => watch.once('data', () => resolve()));
      const drained = listener.drain({ timeoutMs: 1_000 });
      await notServing;
      expect(seen).toEqual(['SERVING', 'NOT_SERVING']);
      await drained;
    } finally {
      health.close();
      await listener.close();
    }
  }, 30_000);
});

interface HealthClient {
  Check(
    request: { service: string },
    done: (error: Error | null, response?: { status: string }) => void,
  ): void;
  Watch(request: { service: string }): NodeJS.EventEmitter;
  close(): void;
}
