import {
  context,
  propagation,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  type TextMapPropagator,
  type Tracer,
  type TracerProvider,
  trace,
} from '@opentelemetry/api';
import { type Interceptor, type JSONRPCRequest, McpError, type OutgoingRequestCall } from '@x/protocol';

/** The `_meta` keys 2026-07-28 reserves for trace context (basic/index "Reserved keys"). */
const TRACE_KEYS = ['traceparent', 'tracestate', 'baggage'] as const;

/**
 * Options of {@link mcpTracing}.
 *
 * @example
 * ```ts
 * mcpTracing({ tracerProvider: provider, propagator: new W3CTraceContextPropagator() });
 * ```
 */
export interface McpTracingOptions {
  /** Where spans go. Default: the global provider (`trace.getTracerProvider()`). */
  tracerProvider?: TracerProvider | undefined;
  /** How trace context is written to and read from `_meta`. Default: the global propagator. */
  propagator?: TextMapPropagator | undefined;
  /** Tracer name. Default `'@x/otel'`. */
  name?: string | undefined;
}

/**
 * OpenTelemetry for an x-mcp `Client` or `Server` (`use(mcpTracing())`): a span per request on both
 * sides, joined across the wire by W3C trace context in `params._meta` (`traceparent`, `tracestate`,
 * `baggage`: the keys the 2026-07-28 spec reserves for it, basic/index "OpenTelemetry trace
 * context"; older revisions carry `_meta` the same way). The requester's span (kind CLIENT) is a child of
 * whatever span is active when the request is made; the answering side's span (kind SERVER) is its
 * child, and the handler runs inside it, so spans the handler starts nest under it. Span names and
 * attributes follow the OpenTelemetry semantic conventions for MCP: `{mcp.method.name} {target}`,
 * `mcp.method.name`, `gen_ai.tool.name`, `gen_ai.prompt.name`, `mcp.resource.uri`,
 * `jsonrpc.request.id`, `rpc.jsonrpc.error_code`, `error.type`.
 *
 * @example
 * ```ts
 * import { mcpTracing } from '@x/otel';
 * client.use(mcpTracing());
 * server.use(mcpTracing());
 * ```
 */
export function mcpTracing(options: McpTracingOptions = {}): Interceptor {
  const name = options.name ?? '@x/otel';
  let tracer: Tracer | undefined;
  const tracerOf = (): Tracer => {
    tracer ??= (options.tracerProvider ?? trace.getTracerProvider()).getTracer(name);
    return tracer;
  };
  const propagator = (): TextMapPropagator => options.propagator ?? propagation;

  return {
    outgoingRequest(call: OutgoingRequestCall, next) {
      const { method, params } = call.request;
      const parent = context.active();
      const span = tracerOf().startSpan(
        spanName(method, params),
        { kind: SpanKind.CLIENT, attributes: attributes(method, params) },
        parent,
      );
      const active = trace.setSpan(parent, span);
      // A copy: the caller's params and `_meta` stay untouched.
      const meta: Record<string, unknown> = { ...metaOf(params) };
      propagator().inject(active, meta, {
        set: (carrier, key, value) => {
          (carrier as Record<string, unknown>)[key] = value;
        },
      });
      const traced = { ...call, request: { method, params: { ...params, _meta: meta } } };
      return settle(
        span,
        context.with(active, () => next(traced)),
      );
    },
    incomingRequest(request: JSONRPCRequest, ctx, next) {
      const { method, params } = request;
      const parent = propagator().extract(ROOT_CONTEXT, metaOf(params), {
        get: (carrier, key) => {
          if (!(TRACE_KEYS as readonly string[]).includes(key)) return undefined;
          const value = (carrier as Record<string, unknown>)[key];
          return typeof value === 'string' ? value : undefined;
        },
        keys: (carrier) => Object.keys(carrier as object),
      });
      const span = tracerOf().startSpan(
        spanName(method, params),
        {
          kind: SpanKind.SERVER,
          attributes: { ...attributes(method, params), 'jsonrpc.request.id': String(ctx.requestId) },
        },
        parent,
      );
      return settle(
        span,
        context.with(trace.setSpan(parent, span), () => next(request)),
      );
    },
  };
}

function metaOf(params: Record<string, unknown> | undefined): Record<string, unknown> {
  const meta = params?.['_meta'];
  return typeof meta === 'object' && meta !== null && !Array.isArray(meta)
    ? (meta as Record<string, unknown>)
    : {};
}

/** What the request acts on: a tool, prompt or resource, as the semantic conventions name spans. */
function target(method: string, params: Record<string, unknown> | undefined): string | undefined {
  const value =
    method === 'tools/call' || method === 'prompts/get'
      ? params?.['name']
      : method.startsWith('resources/')
        ? params?.['uri']
        : undefined;
  return typeof value === 'string' ? value : undefined;
}

function spanName(method: string, params: Record<string, unknown> | undefined): string {
  const what = target(method, params);
  return what === undefined ? method : `${method} ${what}`;
}

function attributes(method: string, params: Record<string, unknown> | undefined): Record<string, string> {
  const result: Record<string, string> = { 'mcp.method.name': method };
  const what = target(method, params);
  if (what === undefined) return result;
  if (method === 'tools/call') {
    result['gen_ai.tool.name'] = what;
    result['gen_ai.operation.name'] = 'execute_tool';
  } else if (method === 'prompts/get') result['gen_ai.prompt.name'] = what;
  else result['mcp.resource.uri'] = what;
  return result;
}

/** Ends `span` with the outcome of `work`, which it passes on unchanged. */
async function settle<T>(span: Span, work: T | Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof McpError) span.setAttribute('rpc.jsonrpc.error_code', error.code);
    span.setAttribute('error.type', error instanceof McpError ? String(error.code) : errorType(error));
    span.setStatus({
      code: SpanStatusCode.ERROR,
      message: error instanceof Error ? error.message : String(error),
    });
    throw error;
  } finally {
    span.end();
  }
}

function errorType(error: unknown): string {
  return error instanceof Error ? error.name : typeof error;
}

/**
 * The `_meta` keys `mcpTracing` reads (and, through the propagator, writes): the ones 2026-07-28
 * reserves for trace context.
 *
 * @example
 * ```ts
 * const traced = TRACE_CONTEXT_META_KEYS.some((key) => key in (params._meta ?? {}));
 * ```
 */
export const TRACE_CONTEXT_META_KEYS: readonly string[] = TRACE_KEYS;
