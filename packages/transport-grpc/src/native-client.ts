import {
  type ChannelCredentials,
  type Client,
  loadPackageDefinition,
  Metadata,
  type ServiceClientConstructor,
  type ServiceError,
} from '@grpc/grpc-js';
import { loadSync } from '@grpc/proto-loader';
import {
  channelCredentials,
  channelOptions,
  type GrpcClientTransportOptions,
  parseTarget,
} from './client-options.js';
import { DEFAULT_MAX_INPUT_ROUNDS } from '@x/protocol/core';
import { NativeCallError } from './errors.js';
import { dependentResponseOf, inputRequestOf } from './native-dependent.js';
import { NATIVE_PROTO_DIR, NATIVE_PROTO_LOAD_OPTIONS } from './native-proto.js';
import { toStruct } from './protobuf-struct.js';

type Json = Record<string, unknown>;

/** How many `dependent_requests` rounds one call may take before it fails: the `Client`'s bound. */
export { DEFAULT_MAX_INPUT_ROUNDS } from '@x/protocol/core';

/** The `mcp-protocol-version` a {@link GrpcNativeClient} sends unless told otherwise. */
export const DEFAULT_NATIVE_PROTOCOL_VERSION = '2025-06-18';

/**
 * What a native client answers when the server asks (`dependent_requests`): each handler gets the MCP
 * request's params and returns the MCP result, as the `Client`'s handlers do. A request without a
 * handler fails the call.
 */
export interface NativeInputHandlers {
  sampling?: ((params: Json) => Json | Promise<Json>) | undefined;
  elicitation?: ((params: Json) => Json | Promise<Json>) | undefined;
  roots?: ((params: Json) => Json | Promise<Json>) | undefined;
}

/**
 * Options of a {@link GrpcNativeClient}: the channel options of `GrpcClientTransport` (TLS, credentials,
 * metadata, message size, keepalive) plus the binding's own.
 *
 * @example
 * ```ts
 * new GrpcNativeClient('127.0.0.1:50051', { handlers: { elicitation: () => ({ action: 'decline' }) } });
 * ```
 */
export interface GrpcNativeClientOptions
  extends Pick<
    GrpcClientTransportOptions,
    | 'tls'
    | 'credentials'
    | 'allowInsecure'
    | 'metadata'
    | 'maxMessageBytes'
    | 'keepAliveMs'
    | 'keepAliveTimeoutMs'
    | 'channelOptions'
  > {
  /** `mcp-protocol-version` metadata of every call. Default {@link DEFAULT_NATIVE_PROTOCOL_VERSION}. */
  protocolVersion?: string | undefined;
  /** Answers the server's `dependent_requests`. Default none (a call that asks fails). */
  handlers?: NativeInputHandlers | undefined;
  /** Rounds of `dependent_requests` one call may take. Default {@link DEFAULT_MAX_INPUT_ROUNDS}. */
  maxInputRounds?: number | undefined;
  /** Deadline of each RPC, in ms. Default none. */
  deadlineMs?: number | undefined;
}

type Unary = (
  request: Json,
  metadata: Metadata,
  options: { deadline?: number },
  done: (error: ServiceError | null, response?: Json) => void,
) => void;

const HANDLER_OF: Readonly<Record<string, keyof NativeInputHandlers>> = {
  'sampling/createMessage': 'sampling',
  'elicitation/create': 'elicitation',
  'roots/list': 'roots',
};

let service: ServiceClientConstructor | undefined;

function nativeClientConstructor(): ServiceClientConstructor {
  if (service !== undefined) return service;
  const loaded = loadPackageDefinition(
    loadSync('mcp.proto', { ...NATIVE_PROTO_LOAD_OPTIONS, includeDirs: [NATIVE_PROTO_DIR] }),
  ) as unknown as { model_context_protocol: { Mcp: ServiceClientConstructor } };
  service = loaded.model_context_protocol.Mcp;
  return service;
}

/**
 * A client of the native protobuf binding (`model_context_protocol.Mcp`, unary RPCs): what a gRPC-native
 * peer in another language does, from TypeScript. Results are the binding's messages as
 * `@grpc/proto-loader` decodes them (snake_case fields, `google.protobuf.Struct` for JSON). A call the
 * server answers with `dependent_requests` (a tool that elicits, samples or lists roots) is answered with
 * `handlers` and sent again with `dependent_responses` and the server's `resume_data`, until it completes.
 *
 * @example
 * ```ts
 * const native = new GrpcNativeClient(listener.target, {
 *   handlers: { elicitation: () => ({ action: 'accept', content: { name: 'Ada' } }) },
 * });
 * const { content } = await native.callTool('greet', {});
 * native.close();
 * ```
 */
export class GrpcNativeClient {
  readonly #client: Client & Record<string, Unary>;
  readonly #options: GrpcNativeClientOptions;

  constructor(target: string, options: GrpcNativeClientOptions = {}) {
    const { address, secure } = parseTarget(target);
    const credentials: ChannelCredentials = channelCredentials(address, secure, options);
    const Mcp = nativeClientConstructor();
    this.#client = new Mcp(address, credentials, channelOptions(options)) as Client & Record<string, Unary>;
    this.#options = options;
  }

  /** `ListTools`: every tool, with `input_schema` as a Struct. */
  async listTools(): Promise<Json[]> {
    return ((await this.call('ListTools', { common: {} }))['tools'] as Json[] | undefined) ?? [];
  }

  /** `CallTool`, answering `dependent_requests` on the way. */
  callTool(name: string, args: Json = {}): Promise<Json> {
    return this.call('CallTool', { common: {}, request: { name, arguments: toStruct(args) } });
  }

  /** `ReadResource`, answering `dependent_requests` on the way. */
  readResource(uri: string): Promise<Json> {
    return this.call('ReadResource', { common: {}, uri });
  }

  /** `GetPrompt`, answering `dependent_requests` on the way. */
  getPrompt(name: string, args: Record<string, string> = {}): Promise<Json> {
    return this.call('GetPrompt', { common: {}, name, arguments: args });
  }

  /**
   * Any RPC of the binding by name, e.g. `ListResources` or `Complete`: the request message as
   * proto-loader takes it. Rejects with `NativeCallError`.
   */
  async call(method: string, request: Json): Promise<Json> {
    const rounds = this.#options.maxInputRounds ?? DEFAULT_MAX_INPUT_ROUNDS;
    let message = request;
    for (let round = 0; round <= rounds; round++) {
      const response = await this.unary(method, message);
      const common = (response['common'] ?? {}) as Json;
      const dependent = (common['dependent_requests'] ?? {}) as Record<string, Json>;
      if (Object.keys(dependent).length === 0) return response;
      const answers: Json = {};
      for (const [key, input] of Object.entries(dependent)) answers[key] = await this.#answer(method, input);
      // spec: the retry echoes `resume_data`; a CallTool retry leaves `request` out.
      const { request: _initial, ...rest } = message;
      message = {
        ...(method === 'CallTool' ? rest : message),
        common: { dependent_responses: answers, resume_data: common['resume_data'] },
      };
    }
    throw new NativeCallError(
      method,
      9,
      `more than ${rounds} dependent_requests rounds (maxInputRounds)`,
      undefined,
    );
  }

  /** Closes the channel; calls in flight fail. */
  close(): void {
    this.#client.close();
  }

  async #answer(method: string, input: Json): Promise<Json> {
    const request = inputRequestOf(input);
    const name = HANDLER_OF[request.method];
    const handler = name === undefined ? undefined : this.#options.handlers?.[name];
    if (handler === undefined) {
      throw new NativeCallError(
        method,
        12,
        `the server asked for ${request.method} and no handler answers it`,
        undefined,
      );
    }
    return dependentResponseOf(request.method, await handler(request.params ?? {}));
  }

  /**
   * One RPC as it is, `dependent_requests` left for the caller to answer (what `call` does for you).
   * Rejects with `NativeCallError`.
   */
  unary(method: string, request: Json): Promise<Json> {
    const metadata = new Metadata();
    for (const [key, value] of Object.entries(this.#options.metadata ?? {}))
      metadata.set(key.toLowerCase(), value);
    metadata.set('mcp-protocol-version', this.#options.protocolVersion ?? DEFAULT_NATIVE_PROTOCOL_VERSION);
    const deadlineMs = this.#options.deadlineMs;
    const rpc = this.#client[method];
    if (typeof rpc !== 'function') {
      return Promise.reject(
        new NativeCallError(method, 12, 'no such RPC in model_context_protocol.Mcp', undefined),
      );
    }
    return new Promise((resolve, reject) =>
      rpc.call(
        this.#client,
        request,
        metadata,
        deadlineMs === undefined ? {} : { deadline: Date.now() + deadlineMs },
        (error, response) => {
          if (error === null) return resolve(response ?? {});
          const trailer = error.metadata?.get('mcp-error-code')[0];
          const code = typeof trailer === 'string' && /^-?\d+$/.test(trailer) ? Number(trailer) : undefined;
          reject(new NativeCallError(method, error.code, error.details, code));
        },
      ),
    );
  }
}
