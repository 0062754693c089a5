import { fileURLToPath } from 'node:url';
import { credentials, loadPackageDefinition, Metadata, type ServiceError } from '@grpc/grpc-js';
import { loadSync } from '@grpc/proto-loader';
import { describe, expect, it } from 'vitest';
import { listenGrpc } from '../src/index.js';
import { demoServer } from './helpers.js';

type Json = Record<string, unknown>;
type Unary = (
  request: Json,
  metadata: Metadata,
  done: (error: ServiceError | null, response?: Json) => void,
) => void;
type NativeClient = Record<string, Unary> & { close(): void };

/** A bare grpc-js client of model_context_protocol.Mcp generated from the published proto files. */
function nativeClient(target: string): NativeClient {
  const dir = fileURLToPath(new URL('../proto/google-mcp/', import.meta.url));
  const root = loadPackageDefinition(
    loadSync('mcp.proto', { includeDirs: [dir], keepCase: true, oneofs: true, enums: String, longs: Number }),
  ) as unknown as { model_context_protocol: { Mcp: new (target: string, creds: unknown) => NativeClient } };
  return new root.model_context_protocol.Mcp(target, credentials.createInsecure());
}

function call(client: NativeClient, method: string, request: Json, version: string | null = '2025-06-18') {
  const metadata = new Metadata();
  if (version !== null) metadata.set('mcp-protocol-version', version);
  return new Promise<Json>((resolve, reject) =>
    client[method]!.call(client, request, metadata, (error, response) =>
      error ? reject(error) : resolve(response!),
    ),
  );
}

describe('the native protobuf binding (model_context_protocol.Mcp)', () => {
  it('lists and calls tools, reads resources, gets prompts of an McpServer', async () => {
    const mcp = demoServer();
    await using listener = await listenGrpc({
      port: 0,
      keepAliveMs: 0,
      onsession: (transport) => mcp.connect(transport),
      native: { connect: (transport) => mcp.connect(transport) },
    });
    const client = nativeClient(listener.target);
    try {
      const tools = await call(client, 'ListTools', { common: {} });
      const add = (tools['tools'] as Json[]).find((tool) => tool['name'] === 'add')!;
      expect(add['input_schema']).toMatchObject({ fields: { type: { stringValue: 'object' } } });
      const result = await call(client, 'CallTool', {
        common: {},
        request: { name: 'add', arguments: { fields: { a: { numberValue: 2 }, b: { numberValue: 40 } } } },
      });
      expect(result['content']).toEqual([
        expect.objectContaining({ text: expect.objectContaining({ text: '42' }) }),
      ]);
      expect(result['is_error']).toBe(false);
      const read = await call(client, 'ReadResource', { uri: 'demo://greeting' });
      expect(read['resource']).toEqual([
        expect.objectContaining({ uri: 'demo://greeting', text: 'hello over gRPC' }),
      ]);
      const prompt = await call(client, 'GetPrompt', { name: 'hi' });
      expect(prompt['messages']).toEqual([
        expect.objectContaining({ role: 'ROLE_USER', text: expect.objectContaining({ text: 'hi' }) }),
      ]);
      const prompts = await call(client, 'ListPrompts', {});
      expect((prompts['prompts'] as Json[]).map((p) => p['name'])).toEqual(['hi']);
    } finally {
      client.close();
    }
  }, 30_000);

  it('requires mcp-protocol-version (UNIMPLEMENTED) and maps JSON-RPC errors with mcp-error-code', async () => {
    const mcp = demoServer();
    await using listener = await listenGrpc({
      port: 0,
      keepAliveMs: 0,
      onsession: (transport) => mcp.connect(transport),
      native: { connect: (transport) => mcp.connect(transport) },
    });
    const client = nativeClient(listener.target);
    try {
      const missing = (await call(client, 'ListTools', {}, null).catch(
        (error: unknown) => error,
      )) as ServiceError;
      expect(missing.code).toBe(12);
      expect(missing.details).toMatch(/mcp-protocol-version/);
      const unknown = (await call(client, 'ReadResource', { uri: 'demo://nope' }).catch(
        (error: unknown) => error,
      )) as ServiceError;
      expect(unknown.code).not.toBe(0);
      expect(unknown.metadata.get('mcp-error-code')[0]).toMatch(/^-?\d+$/);
    } finally {
      client.close();
    }
  }, 30_000);

  it('runs authenticate per RPC: refused without a token, the caller reaches the tool with one', async () => {
    const mcp = demoServer();
    await using listener = await listenGrpc({
      port: 0,
      keepAliveMs: 0,
      authenticate: (request) =>
        request.headers.get('authorization') === 'Bearer good'
          ? { token: 'good', clientId: 'native-caller', scopes: [] }
          : new Response(null, { status: 401, headers: { 'www-authenticate': 'Bearer realm="mcp"' } }),
      onsession: (transport) => mcp.connect(transport),
      native: { connect: (transport) => mcp.connect(transport) },
    });
    const client = nativeClient(listener.target);
    try {
      const whoami = { common: {}, request: { name: 'whoami', arguments: { fields: {} } } };
      const refused = (await call(client, 'CallTool', whoami).catch(
        (error: unknown) => error,
      )) as ServiceError;
      expect(refused.code).toBe(16);
      expect(refused.metadata.get('www-authenticate')).toEqual(['Bearer realm="mcp"']);
      const metadata = new Metadata();
      metadata.set('mcp-protocol-version', '2025-06-18');
      metadata.set('authorization', 'Bearer good');
      const result = await new Promise<Json>((resolve, reject) =>
        client['CallTool']!.call(client, whoami, metadata, (error, response) =>
          error ? reject(error) : resolve(response!),
        ),
      );
      expect(result['content']).toEqual([
        expect.objectContaining({ text: expect.objectContaining({ text: 'native-caller' }) }),
      ]);
    } finally {
      client.close();
    }
  }, 30_000);
});
