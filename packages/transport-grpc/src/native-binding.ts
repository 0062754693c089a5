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
import {
  type AuthInfo,
  InMemoryTransport,
  type JSONRPCMessage,
  MetaKey,
  ResultType,
  type Transport,
} from '@x/protocol/core';
import {
  dependentRequestOf,
  type InputRequest,
  inputResponseOf,
  UnmappableInputError,
} from './native-dependent.js';
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
import { NATIVE_PROTO_DIR, NATIVE_PROTO_LOAD_OPTIONS } from './native-proto.js';
import { fromStruct, type ProtoStruct, toStruct } from './protobuf-struct.js';
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

/**
 * The era the binding speaks to the server: 2026-07-28, stateless, so a tool that asks the client for
 * input answers `input_required`, which is what `dependent_requests` carries (no handshake either).
 */
const SESSION_PROTOCOL_VERSION = '2026-07-28';

/**
 * What the binding declares on the client's behalf: a native client can be asked for any of these
 * through `dependent_requests` (it fails the RPC when it cannot answer).
 */
const NATIVE_CLIENT_CAPABILITIES = { sampling: {}, elicitation: { form: {} }, roots: {} };

const REQUEST_META = {
  [MetaKey.ProtocolVersion]: SESSION_PROTOCOL_VERSION,
  [MetaKey.ClientCapabilities]: NATIVE_CLIENT_CAPABILITIES,
  [MetaKey.ClientInfo]: { name: 'x-mcp grpc native binding', version: '1' },
};

/** What `resume_data` holds between rounds: the sealed `requestState` and the request it belongs to. */
interface Resume {
  requestState: string;
  params: Json;
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
 * `mcp-error-code` trailer. A tool that asks the client (sampling, form elicitation, roots) answers with
 * `dependent_requests` and `resume_data`; the retry's `dependent_responses` complete it. Not carried:
 * `ttl`, URL elicitation, notifications and subscriptions — use the tunnel for those.
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
        // spec: `request` is required on the initial request only; a retry carries `resume_data`.
        const inner = request['request'] as Json | null | undefined;
        const params = inner
          ? { name: inner['name'], arguments: argumentsOf(inner['arguments'] as never) }
          : undefined;
        return this.#round('tools/call', params, request, auth, callToolResponseOf);
      }),
      ListResources: unary(async () => ({
        resources: (await this.#all('resources/list', 'resources')).map(resourceOf),
      })),
      ReadResource: unary((request, auth) =>
        this.#round('resources/read', { uri: request['uri'] }, request, auth, (result) => ({
          resource: ((result['contents'] as Json[] | undefined) ?? []).map(resourceContentsOf),
        })),
      ),
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
      GetPrompt: unary((request, auth) =>
        this.#round(
          'prompts/get',
          { name: request['name'], arguments: request['arguments'] ?? {} },
          request,
          auth,
          (result) => ({
            description: result['description'] ?? '',
            messages: ((result['messages'] as Json[] | undefined) ?? []).map(promptMessageOf),
          }),
        ),
      ),
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
      } else if (error instanceof UnmappableInputError) {
        trailers.set('mcp-error-code', String(METHOD_NOT_FOUND));
        done({ code: statusOfErrorCode(METHOD_NOT_FOUND), details: error.message, metadata: trailers });
      } else {
        trailers.set('mcp-error-code', String(INTERNAL_ERROR));
        done({
          code: 13,
          details: error instanceof Error ? error.message : String(error),
          metadata: trailers,
        });
      }
    }
  }

  /**
   * One round of a request that may ask the client for input (`tools/call`, `resources/read`,
   * `prompts/get`): `dependent_responses` and the `requestState` in `resume_data` go to the server as
   * `inputResponses` / `requestState`; an `input_required` answer goes back as `dependent_requests`
   * plus `resume_data` (the sealed state and the request's params, since a retried `CallTool` may omit
   * its `request`; the server checks the params against the state, so a changed request is refused).
   */
  async #round(
    method: string,
    params: Json | undefined,
    request: Json,
    auth: AuthInfo | undefined,
    complete: (result: Json) => Json,
  ): Promise<Json> {
    const common = (request['common'] ?? {}) as Json;
    const resume = resumeOf(common['resume_data'] as ProtoStruct | null | undefined);
    const responses = (common['dependent_responses'] ?? {}) as Record<string, Json>;
    const base = params ?? resume?.params;
    if (base === undefined) {
      throw new RpcError(INVALID_PARAMS, `${method}: the first request must carry its request fields`);
    }
    const inputResponses: Json = {};
    for (const [key, response] of Object.entries(responses)) inputResponses[key] = inputResponseOf(response);
    const result = await this.#request(
      method,
      {
        ...base,
        ...(resume === undefined ? {} : { requestState: resume.requestState }),
        ...(Object.keys(inputResponses).length === 0 ? {} : { inputResponses }),
      },
      auth,
    );
    if (result['resultType'] !== ResultType.InputRequired) return complete(result);
    const dependent: Json = {};
    for (const [key, input] of Object.entries(
      (result['inputRequests'] ?? {}) as Record<string, InputRequest>,
    )) {
      dependent[key] = dependentRequestOf(input);
    }
    const next: Resume = { requestState: String(result['requestState']), params: base };
    return { common: { dependent_requests: dependent, resume_data: toStruct({ ...next }) } };
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
    return this.#send(session, method, { ...params, _meta: REQUEST_META }, auth);
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

  /**
   * The one connection every RPC uses, opened on first use. It speaks 2026-07-28 (no handshake, each
   * request carries its `_meta`), so each RPC stands alone, as the binding's unary calls do.
   */
  #open(): Promise<InMemoryTransport> {
    this.#session ??= (async () => {
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      this.#serverSide = serverSide;
      clientSide.onmessage = (message) => this.#settle(message);
      await this.#options.connect(serverSide);
      await clientSide.start();
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

// JSON-RPC error codes (spec basic/index "Error codes").
const INVALID_PARAMS = -32602;
const METHOD_NOT_FOUND = -32601;
const INTERNAL_ERROR = -32603;

/** The `resume_data` of a retry, if it holds what this binding put there. */
function resumeOf(struct: ProtoStruct | null | undefined): Resume | undefined {
  const data = fromStruct(struct);
  const requestState = data?.['requestState'];
  const params = data?.['params'];
  if (typeof requestState !== 'string' || typeof params !== 'object' || params === null) return undefined;
  return { requestState, params: params as Json };
}

let definition: ServiceDefinition | undefined;

/** The service definition of `model_context_protocol.Mcp`, from the shipped proto. */
export function nativeServiceDefinition(): ServiceDefinition {
  if (definition !== undefined) return definition;
  const loaded = loadPackageDefinition(
    loadSync('mcp.proto', { ...NATIVE_PROTO_LOAD_OPTIONS, includeDirs: [NATIVE_PROTO_DIR] }),
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
