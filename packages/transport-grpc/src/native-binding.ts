import { fileURLToPath } from 'node:url';
import {
  loadPackageDefinition,
  Metadata,
  type sendUnaryData,
  type Server,
  type ServerUnaryCall,
  type ServiceDefinition,
  type UntypedHandleCall,
} from '@grpc/grpc-js';
import { loadSync } from '@grpc/proto-loader';
import { type AuthInfo, InMemoryTransport, type JSONRPCMessage, type Transport } from '@x/protocol/core';
import {
  argumentsOf,
  callToolResponseOf,
  promptMessageOf,
  promptOf,
  resourceContentsOf,
  resourceOf,
  statusOfErrorCode,
  toolOf,
} from './native-mapping.js';
import { type GrpcAuthenticate, metadataRequest, refusalOf } from './session-auth.js';

type Json = Record<string, unknown>;

/** The `mcp-protocol-version` values the binding accepts (its `ProtocolVersion` enum, and 2025-11-25). */
export const NATIVE_PROTOCOL_VERSIONS: readonly string[] = ['2025-03-26', '2025-06-18', '2025-11-25'];

/**
 * Options of `addMcpNativeService(server, options)`.
 *
 * @example
 * ```ts
 * addMcpNativeService(server, { connect: (transport) => mcpServer.connect(transport) });
 * ```
 */
export interface NativeServiceOptions {
  /** Connects the MCP server to the binding's transport (once; one session serves every call). */
  connect: (transport: Transport) => unknown;
  /**
   * Authenticates each RPC from its metadata, the tunnel's hook (`bearerAuth` of `@x/auth` fits): the
   * `AuthInfo` reaches the handlers as `extra.authInfo`; a `Response` refuses the RPC (401:
   * `UNAUTHENTICATED`, 403: `PERMISSION_DENIED`, `www-authenticate` in the trailers). `listenGrpc` passes
   * its own `authenticate` on.
   */
  authenticate?: GrpcAuthenticate | undefined;
  /** Accepted `mcp-protocol-version` metadata values. Default {@link NATIVE_PROTOCOL_VERSIONS}. */
  protocolVersions?: readonly string[] | undefined;
}

/** A JSON-RPC error answered by the MCP server, on its way to a gRPC status. */
class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The native protobuf binding (`model_context_protocol.Mcp`, unary RPCs, the published version) served
 * by any MCP server: each RPC becomes the JSON-RPC request it stands for (`ListTools` → `tools/list`,
 * `CallTool` → `tools/call`, …) on one in-memory session with the server, and the result is mapped
 * field by field. Required metadata `mcp-protocol-version` (missing or unsupported: `UNIMPLEMENTED`,
 * echoed in the initial metadata); a JSON-RPC error becomes a gRPC status (`INVALID_ARGUMENT`,
 * `UNIMPLEMENTED`, `INTERNAL`, `DEADLINE_EXCEEDED`, else `UNKNOWN`) with the exact code in the
 * `mcp-error-code` trailer. Not carried: `dependent_requests` (sampling, elicitation, roots), `ttl`,
 * notifications and subscriptions — use the tunnel for those.
 *
 * @example
 * ```ts
 * const server = new grpc.Server();
 * addMcpNativeService(server, { connect: (transport) => mcpServer.connect(transport) });
 * ```
 */
export class McpNativeService {
  readonly #options: NativeServiceOptions;
  #session: Promise<InMemoryTransport> | undefined;
  readonly #pending = new Map<number, { resolve: (result: Json) => void; reject: (error: Error) => void }>();
  #nextId = 1;
  #serverSide: InMemoryTransport | undefined;

  /** @internal Use `addMcpNativeService`. */
  constructor(options: NativeServiceOptions) {
    this.#options = options;
  }

  /** The handlers `server.addService(definition, …)` takes. */
  handlers(): Record<string, UntypedHandleCall> {
    const unary =
      (run: (request: Json, auth: AuthInfo | undefined) => Promise<Json>) =>
      (call: ServerUnaryCall<Json, Json>, done: sendUnaryData<Json>): void =>
        void this.#serve(call, done, run);
    return {
      ListTools: unary(async (_request, auth) => ({
        tools: (await this.#all('tools/list', 'tools', auth)).map(toolOf),
      })),
      CallTool: unary(async (request, auth) => {
        const inner = (request['request'] ?? {}) as Json;
        const result = await this.#request(
          'tools/call',
          { name: inner['name'], arguments: argumentsOf(inner['arguments'] as never) },
          auth,
        );
        return callToolResponseOf(result);
      }),
      ListResources: unary(async () => ({
        resources: (await this.#all('resources/list', 'resources')).map(resourceOf),
      })),
      ReadResource: unary(async (request, auth) => {
        const result = await this.#request('resources/read', { uri: request['uri'] }, auth);
        return { resource: ((result['contents'] as Json[] | undefined) ?? []).map(resourceContentsOf) };
      }),
      ListResourceTemplates: unary(async () => ({
        resource_templates: (await this.#all('resources/templates/list', 'resourceTemplates')).map(
          (template) => ({
            uri_template: template['uriTemplate'],
            name: template['name'] ?? '',
            title: template['title'] ?? '',
            description: template['description'] ?? '',
            mime_type: template['mimeType'] ?? '',
          }),
        ),
      })),
      ListPrompts: unary(async () => ({
        prompts: (await this.#all('prompts/list', 'prompts')).map(promptOf),
      })),
      GetPrompt: unary(async (request) => {
        const result = await this.#request('prompts/get', {
          name: request['name'],
          arguments: request['arguments'] ?? {},
        });
        return {
          description: result['description'] ?? '',
          messages: ((result['messages'] as Json[] | undefined) ?? []).map(promptMessageOf),
        };
      }),
      Complete: unary(async (request) => {
        const prompt = request['prompt_reference'] as Json | undefined;
        const resource = request['resource_reference'] as Json | undefined;
        const ref = prompt
          ? { type: 'ref/prompt', name: prompt['name'] }
          : { type: 'ref/resource', uri: resource?.['uri'] };
        const result = await this.#request('completion/complete', {
          ref,
          argument: request['argument'] ?? {},
          ...(request['context'] ? { context: request['context'] } : {}),
        });
        const completion = (result['completion'] ?? {}) as Json;
        return {
          values: completion['values'] ?? [],
          total_matches: completion['total'] ?? 0,
          has_more: completion['hasMore'] === true,
        };
      }),
    };
  }

  async #serve(
    call: ServerUnaryCall<Json, Json>,
    done: sendUnaryData<Json>,
    run: (request: Json, auth: AuthInfo | undefined) => Promise<Json>,
  ): Promise<void> {
    const version = call.metadata.get('mcp-protocol-version')[0];
    const accepted = this.#options.protocolVersions ?? NATIVE_PROTOCOL_VERSIONS;
    if (typeof version !== 'string' || !accepted.includes(version)) {
      done({
        code: 12,
        details: `mcp-protocol-version metadata ${version === undefined ? 'missing' : `${String(version)} unsupported`}; supported: ${accepted.join(', ')}`,
      });
      return;
    }
    let auth: AuthInfo | undefined;
    const authenticate = this.#options.authenticate;
    if (authenticate !== undefined) {
      const verdict = await authenticate(metadataRequest(call.metadata, call.getHost()), call.metadata);
      if (verdict instanceof Response) {
        const refusal = await refusalOf(verdict);
        done({ code: refusal.code, details: refusal.details, metadata: refusal.metadata });
        return;
      }
      auth = verdict;
    }
    const initial = new Metadata();
    initial.set('mcp-protocol-version', version);
    call.sendMetadata(initial);
    try {
      done(null, { common: {}, ...(await run(call.request, auth)) });
    } catch (error) {
      const trailers = new Metadata();
      if (error instanceof RpcError) {
        trailers.set('mcp-error-code', String(error.code));
        done({ code: statusOfErrorCode(error.code), details: error.message, metadata: trailers });
      } else {
        done({ code: 13, details: error instanceof Error ? error.message : String(error) });
      }
    }
  }

  /** Every item of a paginated list. */
  async #all(method: string, key: string, auth?: AuthInfo): Promise<Json[]> {
    const items: Json[] = [];
    let cursor: unknown;
    for (let page = 0; page < 1_000; page++) {
      const result = await this.#request(method, cursor === undefined ? {} : { cursor }, auth);
      items.push(...((result[key] as Json[] | undefined) ?? []));
      cursor = result['nextCursor'];
      if (typeof cursor !== 'string') break;
    }
    return items;
  }

  async #request(method: string, params: Json, auth?: AuthInfo): Promise<Json> {
    const session = await this.#open();
    return this.#send(session, method, params, auth);
  }

  #send(session: InMemoryTransport, method: string, params: Json, auth?: AuthInfo): Promise<Json> {
    const id = this.#nextId++;
    return new Promise<Json>((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      // The server end's `extra` is read as the message is sent: this RPC's caller, no other's.
      if (this.#serverSide !== undefined)
        this.#serverSide.extra = auth === undefined ? undefined : { authInfo: auth };
      session.send({ jsonrpc: '2.0', id, method, params } as JSONRPCMessage).catch((error: unknown) => {
        this.#pending.delete(id);
        reject(error instanceof Error ? error : new Error(String(error)));
      });
    });
  }

  /** The one session every RPC uses, opened with `initialize` on first use. */
  #open(): Promise<InMemoryTransport> {
    this.#session ??= (async () => {
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      this.#serverSide = serverSide;
      clientSide.onmessage = (message) => this.#settle(message);
      await this.#options.connect(serverSide);
      await clientSide.start();
      await this.#send(clientSide, 'initialize', {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'x-mcp grpc native binding', version: '1' },
      });
      await clientSide.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      return clientSide;
    })();
    // A failed opening is tried again on the next call.
    this.#session.catch(() => {
      this.#session = undefined;
    });
    return this.#session;
  }

  #settle(message: JSONRPCMessage): void {
    const reply = message as { id?: unknown; result?: Json; error?: { code: number; message: string } };
    if (typeof reply.id !== 'number') return;
    const pending = this.#pending.get(reply.id);
    if (pending === undefined) return;
    this.#pending.delete(reply.id);
    if (reply.error !== undefined) pending.reject(new RpcError(reply.error.code, reply.error.message));
    else pending.resolve(reply.result ?? {});
  }
}

let definition: ServiceDefinition | undefined;

/** The service definition of `model_context_protocol.Mcp`, from the shipped proto. */
export function nativeServiceDefinition(): ServiceDefinition {
  if (definition !== undefined) return definition;
  const dir = fileURLToPath(new URL('../proto/google-mcp/', import.meta.url));
  const loaded = loadPackageDefinition(
    loadSync('mcp.proto', { includeDirs: [dir], keepCase: true, oneofs: true, enums: String, longs: Number }),
  ) as unknown as { model_context_protocol: { Mcp: { service: ServiceDefinition } } };
  definition = loaded.model_context_protocol.Mcp.service;
  return definition;
}

/**
 * Serves the native protobuf binding (`model_context_protocol.Mcp`) of an MCP server on a `grpc.Server`,
 * beside (or instead of) the tunnel.
 *
 * @example
 * ```ts
 * const mcp = new McpServer({ name: 'demo', version: '1.0.0' });
 * addMcpNativeService(server, { connect: (transport) => mcp.connect(transport) });
 * ```
 */
export function addMcpNativeService(server: Server, options: NativeServiceOptions): McpNativeService {
  const service = new McpNativeService(options);
  server.addService(nativeServiceDefinition(), service.handlers());
  return service;
}
